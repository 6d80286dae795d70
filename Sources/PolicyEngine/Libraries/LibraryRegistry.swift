/// The libraries pinctl reproduces, each listed once: the one place a new library is added (beside its own folder).
public enum LibraryRegistry {
    /// Every library's definition, in the order help texts and error messages list them.
    public static let all: [LibraryDefinition] = [
        .afnetworking, .alamofire, .okhttp, .trustkit, .nsc, .ats,
    ]

    /// The definition of the library named `name` (`afnetworking`, …), nil for an unknown name.
    public static func definition(named name: String) -> LibraryDefinition? {
        all.first { $0.library.rawValue == name }
    }

    /// The library whose `config:` entries take `key`, nil when none does.
    static func owner(ofConfigSetting key: String) -> LibraryDefinition? {
        all.first { $0.configSettings.contains { $0.key == key } }
    }
}
