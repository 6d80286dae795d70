import FoundationEssentials

/// Everything pinctl knows of one pinning library, in one value: its name, its inline policy form in a policy file,
/// the file its apps ship (read for `config:` and `config import`, written by `config export`), what its command-line
/// flags mean, and (through the policies it builds) its evaluator. Each library declares its definition in its own
/// folder; `LibraryRegistry.all` lists them, and nothing else names a library.
public struct LibraryDefinition: Sendable {
    /// Where an inline policy's relative paths start, and the hosts of its app entry.
    struct InlineContext: Sendable {
        let directory: String
        let hosts: [String]
        /// The pin files and directories the policy file's apps name, each read once for all of them.
        let pinFiles: PinFiles
    }

    /// The library's inline `policy:` form (DESIGN §7).
    enum InlineForm: Sendable {
        case decoder(@Sendable (YAMLValue, InlineContext) throws(ConfigurationError) -> any TrustPolicy)
        /// The library has none; the reason says what to give instead.
        case none(String)
    }

    /// A key of a `config:` app entry besides the file: a setting the file does not say (a bundle's mode).
    struct ConfigSetting: Sendable {
        let key: String
        /// Reads the key's value into the settings, or refuses it at its line.
        let read: @Sendable (YAMLValue, inout NativeConfiguration.Settings) throws(ConfigurationError) -> Void
    }

    /// The policy built from the command line: one per domain (some libraries pin the host checked), and the
    /// warnings the flags themselves give rise to.
    public struct FlagPolicy: Sendable {
        public let warnings: [String]
        public let policy: @Sendable (_ domain: String?) throws(InputError) -> any TrustPolicy

        public init(warnings: [String] = [],
                    policy: @escaping @Sendable (_ domain: String?) throws(InputError) -> any TrustPolicy) {
            self.warnings = warnings
            self.policy = policy
        }

        /// One policy for every domain.
        public init(_ policy: any TrustPolicy, warnings: [String] = []) {
            self.init(warnings: warnings) { _ in policy }
        }
    }

    /// A flag of `config import`: it sets the reading's settings as the app entry's key does (`--mode` as `mode:`).
    struct ImportFlag: Sendable {
        let flag: LibraryFlag
        /// Takes one value given (a switch: ""), or refuses it saying why.
        let apply: @Sendable (String, inout NativeConfiguration.Settings) throws(InputError) -> Void
    }

    public let library: Library
    /// The library's evaluator, whose policy every form of the library builds; it converts to the portable form
    /// every other library's export starts from, so a library without that conversion does not build.
    public let policy: any (TrustPolicy & PortableConvertible).Type
    /// The platforms on which the library's pinning exists only from some version on (DESIGN §12); elsewhere it
    /// exists wherever the app runs.
    public let availability: [LibraryAvailability]
    let inline: InlineForm
    let configSettings: [ConfigSetting]
    /// Reads the file (or bundle directory) the app ships, as the library reads it.
    public let readNative: @Sendable (String, NativeConfiguration.Settings) throws(ConfigurationError)
        -> NativeConfiguration.Reading
    /// Reads the library's configuration from a build (an IPA's Info.plist, the files at its bundle's top), as the
    /// library reads what ships; nil when the build carries none. Only the libraries a build can configure have one.
    let readBuild: (@Sendable (AppBuild, NativeConfiguration.Settings) throws(ConfigurationError)
        -> NativeConfiguration.Reading?)?
    /// The forms `config export` writes for this library, the first being the default.
    public let exportForms: [NativeExport.Format]
    /// A contradiction among the flags given, caught before anything is read (nil: none).
    public let flagsProblem: (@Sendable (PolicyFlags) -> String?)?
    /// The library's own flags of `check`, `verify` and `lint`, which `policyFromFlags` reads.
    public let flags: [LibraryFlag]
    let importFlags: [ImportFlag]
    /// The policy the command line describes: the same constructors and rules as the policy file's.
    public let policyFromFlags: @Sendable (PolicyFlags) throws(InputError) -> FlagPolicy

    init(
        library: Library, policy: any (TrustPolicy & PortableConvertible).Type, availability: [LibraryAvailability],
        inline: InlineForm, configSettings: [ConfigSetting],
        readNative: @escaping @Sendable (String, NativeConfiguration.Settings) throws(ConfigurationError)
            -> NativeConfiguration.Reading,
        readBuild: (@Sendable (AppBuild, NativeConfiguration.Settings) throws(ConfigurationError)
            -> NativeConfiguration.Reading?)?,
        exportForms: [NativeExport.Format],
        flags: [LibraryFlag], flagsProblem: (@Sendable (PolicyFlags) -> String?)?,
        importFlags: [ImportFlag],
        policyFromFlags: @escaping @Sendable (PolicyFlags) throws(InputError) -> FlagPolicy
    ) {
        self.library = library
        self.policy = policy
        self.availability = availability
        self.inline = inline
        self.configSettings = configSettings
        self.readNative = readNative
        self.readBuild = readBuild
        self.exportForms = exportForms
        self.flags = flags
        self.flagsProblem = flagsProblem
        self.importFlags = importFlags
        self.policyFromFlags = policyFromFlags
    }

    /// The flags of `config import` that set this library's reading.
    public var importFlagList: [LibraryFlag] { importFlags.map(\.flag) }

    /// What is wrong with the flags given for this library: a value a flag does not take, then the library's own
    /// check; nil when nothing is.
    public func problem(with given: PolicyFlags) -> String? {
        for (name, value) in given.settings {
            if let problem = flags.first(where: { $0.name == name })?.problem(with: value) { return problem }
        }
        return flagsProblem?(given)
    }

    /// Sets `settings` from the `config import` flags given for this library.
    public func applyImportFlags(_ given: [(flag: String, value: String)],
                                 to settings: inout NativeConfiguration.Settings) throws(InputError) {
        for (name, value) in given {
            guard let flag = importFlags.first(where: { $0.flag.name == name }) else { continue }
            if let problem = flag.flag.problem(with: value) { throw InputError(problem) }
            try flag.apply(value, &settings)
        }
    }

    /// Decodes the app entry's `policy:` value.
    func decodeInline(_ value: YAMLValue, _ context: InlineContext) throws(ConfigurationError) -> any TrustPolicy {
        switch inline {
        case .decoder(let decode): try decode(value, context)
        case .none(let reason): throw value.error(reason)
        }
    }
}
