import PolicyEngine

/// The platform versions one result holds for (DESIGN §12): consecutive versions of one platform whose verdicts are
/// the same, `android@25-34`.
public struct PlatformRange: Sendable {
    /// `android`, `ios`, `macos`, `mozilla`.
    public let platform: String
    /// The oldest and newest version of the range (the same for one version).
    public let first: StoreSnapshot
    public let last: StoreSnapshot
    /// For a chain untrusted on these versions because no anchor issued its top certificate: that certificate's
    /// issuer, the root these stores lack.
    public let missingRoot: String?

    /// `24` or `25-34`.
    public var versions: String {
        first.version == last.version ? first.version.description : "\(first.version)-\(last.version)"
    }

    /// `android@25-34`, as `--platform` takes it.
    public var name: String { "\(platform)@\(versions)" }
}
