/// A pinning library whose semantics pinctl reproduces: its name, as policy files and `--library` write it.
///
/// Each library declares its own value beside its evaluator (`Libraries/<library>/`) and is listed once, in
/// `LibraryRegistry.all`; `Library(rawValue:)` finds only the libraries listed there.
public struct Library: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// `afnetworking`, `nsc`: the name a policy file and the command line use.
    public let rawValue: String
    /// "AFNetworking", "Android NSC": the name people know it by.
    public let displayName: String

    public init(name: String, displayName: String) {
        rawValue = name
        self.displayName = displayName
    }

    /// The registered library of that name, nil for any other.
    public init?(rawValue: String) {
        guard let known = LibraryRegistry.definition(named: rawValue) else { return nil }
        self = known.library
    }

    /// Every registered library, in the registry's order.
    public static var allCases: [Library] { LibraryRegistry.all.map(\.library) }

    public var description: String { rawValue }

    /// The library's one definition.
    public var definition: LibraryDefinition {
        // A Library is made only by a library's own declaration, which the registry lists.
        guard let definition = LibraryRegistry.definition(named: rawValue) else {
            preconditionFailure("\(rawValue) is not listed in LibraryRegistry.all")
        }
        return definition
    }

    public static func == (lhs: Library, rhs: Library) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}
