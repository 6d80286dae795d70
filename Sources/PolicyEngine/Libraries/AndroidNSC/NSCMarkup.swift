/// What a network security config file holds beside the configuration — its comments, the elements Android skips
/// (TrustKit-Android's `<trustkit-config>`, which its library reads from the same file) and the attributes Android
/// does not read (`tools:ignore`, the `xmlns:tools` that declares it) — kept at their places so that an export of the
/// app writes them back and a reviewer sees the file they know (#19).
///
/// Places are keys of the elements of one `base-config`, `domain-config` or the root: `domain#0`, `trust-anchors`,
/// `trust-anchors/certificates#1`, `pin-set/pin#0`, `domain-config#2` (the Nth element of that name); `self` is the
/// element itself (its attributes), and `end` / `pin-set/end` what closes an element.
public struct NSCMarkup: Sendable {
    /// A comment (as written between `<!--` and `-->`) or a skipped element, as written.
    public enum Item: Sendable {
        case comment(String)
        case element(NetworkSecurityConfig.WrittenElement)
    }

    /// What stands before each place, in the file's order.
    public var items: [String: [Item]] = [:]
    /// Attributes Android does not read, by the place of their element, in the file's order.
    public var attributes: [String: [(name: String, value: String)]] = [:]

    public init() {}

    /// The key of the `ordinal`th element named `name` below `prefix` (`""` or `pin-set/`).
    public static func key(_ prefix: String, _ name: String, _ ordinal: Int) -> String {
        "\(prefix)\(name)#\(ordinal)"
    }
}
