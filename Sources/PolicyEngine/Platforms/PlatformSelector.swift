/// `NAME@VERSIONS` as `--platform` and `stores diff` take it: `android@24`, `android@21-36`, `ios@17`, `android@24-`
/// (that version and every later one), or a bare name for every version the snapshots have.
public struct PlatformSelector: Sendable, Equatable, CustomStringConvertible {
    public let platform: String
    /// Both ends inclusive; nil for every version.
    public let versions: ClosedRange<PlatformVersion>?
    /// `android@21-`: every version from the lower end on, which need not itself have a snapshot (an app's `minSdk`).
    public let openEnded: Bool
    public let description: String

    /// The platforms pinctl has snapshots of; `system` (OpenSSL's default store) needs none.
    public static let snapshotPlatforms = ["android", "ios", "macos", "mozilla"]

    /// OpenSSL's default store, as without `--platform` (DESIGN §12): no versions, no snapshot.
    public static let system = "system"

    /// Whether this names `system`, which judges as a run without platforms does.
    public var isSystem: Bool { platform == Self.system }

    /// Above every version a snapshot can name (eight digits a part): the top of an open range.
    static let newest = PlatformVersion("99999999")!

    public init(parsing text: String) throws(StoreSnapshotError) {
        description = text
        let parts = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        platform = String(parts[0])
        if platform == Self.system {
            guard parts.count == 1 else {
                throw StoreSnapshotError("\(text.debugDescription): system is OpenSSL's default store, which has no "
                    + "versions: name it alone, as `system`")
            }
            versions = nil
            openEnded = false
            return
        }
        guard Self.snapshotPlatforms.contains(platform) else {
            throw StoreSnapshotError("unknown platform \(platform.debugDescription) in \(text.debugDescription): "
                + "expected one of \((Self.snapshotPlatforms + [Self.system]).joined(separator: ", ")), e.g. "
                + "android@24-36 or ios@17")
        }
        guard parts.count == 2 else {
            versions = nil
            openEnded = false
            return
        }
        let bounds = parts[1].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        openEnded = bounds.count == 2 && bounds[1].isEmpty
        if openEnded, let low = PlatformVersion(bounds[0]) {
            versions = low...Self.newest
            return
        }
        guard let low = PlatformVersion(bounds[0]), let high = bounds.count == 2 ? PlatformVersion(bounds[1]) : low
        else {
            throw StoreSnapshotError("\(text.debugDescription): a version is dotted numbers, a range two of them "
                + "with `-` between, or one and `-` for it and every later one (android@24, android@21-36, "
                + "macos@10.15-26, android@24-)")
        }
        guard low <= high else {
            throw StoreSnapshotError(
                "\(text.debugDescription): the range runs backwards; write \(platform)@\(high)-\(low)")
        }
        versions = low...high
    }
}
