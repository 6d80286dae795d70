import ArgumentParser
import Checking
import PolicyEngine
import TextSyntax

extension Library: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
    public var defaultValueDescription: String { rawValue }
}

/// The policy options shared by `check` and `verify` (DESIGN §3, §6): a library, its pins and its few settings, or
/// a policy file.
struct PolicyOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "A policy file (pinctl.yaml): judge every app it lists instead of one policy given by flags.",
        valueName: "file"))
    var config: String?

    @Option(help: "Whose pinning semantics to follow (see docs/libraries.md).")
    var library: Library = .afnetworking

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "A pin file or a directory of them (.cer .crt .der .pem certificates, .pin hash files). Repeatable.",
        valueName: "path"))
    var pinPaths: [String] = []

    @Option(name: .customLong("pin"), help: ArgumentHelp(
        "An SPKI hash pin, sha256/BASE64 or pin-sha256=\"BASE64\" (okhttp: also sha1/BASE64). Repeatable.",
        valueName: "pin"))
    var inlinePins: [String] = []

    /// Each library's own flags, as its definition lists them (`--mode`, `--nsc-config`, …).
    @OptionGroup(title: "Library settings (each for its --library)")
    var libraryOptions: LibraryFlagOptions<PolicyFlagUse>

    @OptionGroup var anchors: AnchorOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about certificates expiring within this many days.", valueName: "days"))
    var warnDays: Int = 30

    func validate() throws {
        guard warnDays >= 0 else { throw ValidationError("--warn-days \(warnDays): must be 0 or more") }
        if config != nil {
            let given = libraryFlags.flatMap(\.flags.settings).map(\.flag)
            let flags = given + (pinPaths.isEmpty ? [] : ["--pins"]) + (inlinePins.isEmpty ? [] : ["--pin"])
            guard flags.isEmpty else {
                throw ValidationError("--config: the policy file gives every app its policy; \(flags[0]) cannot be "
                    + "given with it")
            }
            return
        }
        let own = Set(flags.settings.map(\.flag))
        for (_, flags) in libraryFlags {
            guard let flag = flags.settings.first(where: { !own.contains($0.flag) })?.flag else { continue }
            let owners = libraryFlags.filter { $0.flags.has(flag) }.map(\.library.rawValue)
            throw ValidationError("\(flag) is an option of --library \(owners.joined(separator: " or ")), not of "
                + library.rawValue)
        }
        if let problem = library.definition.problem(with: flags) { throw ValidationError(problem) }
    }

    /// Each library's flags as given, by library: a flag several libraries share is given to each.
    var libraryFlags: [(library: Library, flags: PolicyFlags)] {
        LibraryRegistry.all.map { definition in
            (definition.library, PolicyFlags(pinPaths: pinPaths, inlinePins: inlinePins,
                                             settings: libraryOptions.given(for: definition)))
        }
    }

    /// What the command line says of the policy of `--library`: its pins and its own flags.
    var flags: PolicyFlags {
        libraryFlags.first { $0.library == library }?.flags ?? PolicyFlags(pinPaths: pinPaths, inlinePins: inlinePins)
    }

    /// The policy as the checking core takes it: the file, or the library and its flags, parsed only.
    var settings: PolicySettings {
        PolicySettings(config: config, library: library, flags: flags, anchors: anchors.settings, warnDays: warnDays)
    }
}
