/// One of a library's own command-line flags, as a value in its definition: its name, what it takes and its help.
/// A front end declares it to its argument parser and hands back what was given as `PolicyFlags`; what the flag means
/// stays with the library (`policyFromFlags`, `importSettings`).
public struct LibraryFlag: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Given or not.
        case `switch`
        /// One value; `values` lists those allowed, empty when any is.
        case option(valueName: String, values: [String] = [])
        /// A value each time it is given.
        case repeatable(valueName: String)
    }

    /// The long name with its dashes, `--mode`.
    public let name: String
    public let kind: Kind
    /// One sentence for `--help`, without the library's name: the front end says whose flag it is.
    public let help: String

    public init(_ name: String, _ kind: Kind, help: String) {
        self.name = name
        self.kind = kind
        self.help = help
    }

    /// Why `value` is not one this flag takes, nil when it is.
    public func problem(with value: String) -> String? {
        guard case .option(_, let values) = kind, !values.isEmpty, !values.contains(value) else { return nil }
        let expected = values.count == 1 ? values[0]
            : values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
        return "\(name) \(value): expected \(expected)"
    }
}
