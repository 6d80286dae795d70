import ArgumentParser
import PolicyEngine

/// Which of a library's flag lists a command takes.
protocol LibraryFlagUse {
    static func flags(of definition: LibraryDefinition) -> [LibraryFlag]
}

/// `check`, `verify` and `lint`: the flags that describe a policy.
enum PolicyFlagUse: LibraryFlagUse {
    static func flags(of definition: LibraryDefinition) -> [LibraryFlag] { definition.flags }
}

/// `config import`: the flags that set how an app's file is read.
enum ImportFlagUse: LibraryFlagUse {
    static func flags(of definition: LibraryDefinition) -> [LibraryFlag] { definition.importFlagList }
}

/// Every registered library's own flags, declared from the flags each library's definition lists, so a library
/// needs nothing here: ArgumentParser finds its options through a mirror of property-wrapper values (its
/// `ArgumentSet` reflects `init()`'s children, which `CustomReflectable` supplies), and `init(from:)` decodes the
/// same keys, as the compiler's synthesis would for stored properties. Help, completion scripts and the manual
/// page read the same declarations.
struct LibraryFlagOptions<Use: LibraryFlagUse>: ParsableArguments, CustomReflectable {
    /// One flag as declared: a name several libraries share (`--include-subdomains`) is declared once.
    struct Declared {
        let flag: LibraryFlag
        /// Each declaring library's own sentence after its name.
        var help: String
        /// The coding key, which ArgumentParser takes from the label without its `_`.
        var key: String { String(flag.name.drop { $0 == "-" }) }
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// The flags given, in the order declared: the long name and its value ("" for a switch), once per value.
    private(set) var given: [(flag: String, value: String)] = []

    init() {}

    static var declared: [Declared] {
        var declared: [Declared] = []
        for definition in LibraryRegistry.all {
            for flag in Use.flags(of: definition) {
                let help = "\(definition.library.rawValue): \(flag.help)"
                if let index = declared.firstIndex(where: { $0.flag.name == flag.name }) {
                    // One name, one meaning to the parser: LibraryFlagsTests checks that sharers agree on the kind.
                    declared[index].help += " " + help
                } else {
                    declared.append(Declared(flag: flag, help: help))
                }
            }
        }
        return declared
    }

    var customMirror: Mirror {
        Mirror(self, children: Self.declared.map { declared -> Mirror.Child in
            let name = NameSpecification.customLong(declared.key)
            let help = declared.help
            switch declared.flag.kind {
            case .switch:
                return ("_" + declared.key, Flag(wrappedValue: false, name: name, help: ArgumentHelp(help)))
            case .option(let valueName, let values):
                return ("_" + declared.key, Option<String?>(
                    name: name, help: ArgumentHelp(help, valueName: valueName),
                    completion: values.isEmpty ? nil : .list(values)))
            case .repeatable(let valueName):
                return ("_" + declared.key, Option<[String]>(
                    wrappedValue: [], name: name, help: ArgumentHelp(help, valueName: valueName)))
            }
        }, displayStyle: .struct)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        for declared in Self.declared {
            let key = Key(stringValue: declared.key)
            let name = declared.flag.name
            switch declared.flag.kind {
            case .switch:
                if try container.decode(Flag<Bool>.self, forKey: key).wrappedValue { given.append((name, "")) }
            case .option:
                if let value = try container.decode(Option<String?>.self, forKey: key).wrappedValue {
                    given.append((name, value))
                }
            case .repeatable:
                given += try container.decode(Option<[String]>.self, forKey: key).wrappedValue.map { (name, $0) }
            }
        }
    }

    /// The flags given that `definition` lists, in its order.
    func given(for definition: LibraryDefinition) -> [(flag: String, value: String)] {
        Use.flags(of: definition).flatMap { flag in given.filter { $0.flag == flag.name } }
    }
}
