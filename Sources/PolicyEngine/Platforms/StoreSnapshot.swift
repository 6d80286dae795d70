/// One platform version's root store as a snapshot directory records it (docs/platform-stores.md).
public struct StoreSnapshot: Sendable, Equatable {
    /// `android`, `ios`, `macos`, `mozilla`.
    public let platform: String
    /// The version as the snapshot names it: an API level (`24`), an OS major (`17`, `10.15`), a date (`20230311`).
    public let version: PlatformVersion
    /// How a person names it: `Android 7.0 (API 24)`, `iOS 17`.
    public let label: String
    /// The day the source was taken from (its commit date), `YYYY-MM-DD`.
    public let date: String
    /// Where the roots came from: repository, commit and tag.
    public let source: String
    /// The roots of this version, by id (the SHA-256 of the key in hex; docs/platform-stores.md).
    public let rootIDs: Set<String>

    /// `android@24`, the way `--platform` and `stores diff` name it.
    public var name: String { "\(platform)@\(version)" }
}

/// A platform version: dotted decimal numbers, compared number by number (`10.15` < `11`); trailing zeros say
/// nothing (`17.0` is `17`, as iOS 17.0 is iOS 17), so a file or a selector may write either.
public struct PlatformVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numbers, trailing zeros after the first dropped.
    public let components: [Int]
    public let description: String

    /// Parses `24`, `10.15`; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        // Eight digits cover dated versions (20230311) and keep the numbers far from overflowing.
        let numbers = parts.map { part in
            part.count <= 8 && part.allSatisfy(\.isASCIIDigit) && !part.isEmpty ? Int(part) : nil
        }
        guard !numbers.isEmpty, numbers.count <= 4, numbers.allSatisfy({ $0 != nil }) else { return nil }
        var components = numbers.compactMap { $0 }
        while components.count > 1, components.last == 0 { components.removeLast() }
        self.components = components
        description = String(text)
    }

    public static func < (lhs: PlatformVersion, rhs: PlatformVersion) -> Bool {
        for (left, right) in zip(lhs.components, rhs.components) where left != right { return left < right }
        return lhs.components.count < rhs.components.count
    }

    public static func == (lhs: PlatformVersion, rhs: PlatformVersion) -> Bool { lhs.components == rhs.components }
    public func hash(into hasher: inout Hasher) { hasher.combine(components) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
