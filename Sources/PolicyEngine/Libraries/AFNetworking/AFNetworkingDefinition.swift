import FoundationEssentials
import OpenSSLWrapper

extension Library {
    /// AFNetworking's `AFSecurityPolicy` (iOS); the default.
    public static let afnetworking = Library(name: "afnetworking", displayName: "AFNetworking")
}

extension LibraryDefinition {
    /// AFNetworking: inline `{mode, pins, allowInvalidCertificates, validatesDomainName}`, a `.cer` bundle as
    /// shipped, `--mode` and its two switches on the command line.
    static let afnetworking = LibraryDefinition(
        library: .afnetworking,
        policy: AFNetworkingPolicy.self,
        availability: [],
        inline: .decoder { value, context throws(ConfigurationError) in try AFNetworkingDefinition.inline(value, context) },
        configSettings: [ConfigSetting(key: "mode") { value, settings throws(ConfigurationError) in
            let text = try value.string()
            guard let mode = PinningMode(rawValue: text), mode != .none else {
                throw value.error("unknown mode '\(text)' for a bundle (expected certificate or publickey)")
            }
            settings.mode = mode
        }],
        readNative: { path, settings throws(ConfigurationError) in
            // certificatesInBundle: loads `pathsForResourcesOfType:@"cer"`, the top level only.
            let (certificates, notes) = try CertificateBundle.read(path, library: .afnetworking, extensions: [".cer"])
            let policy = AFNetworkingPolicy(mode: settings.mode, pinnedCertificates: certificates, hosts: settings.hosts)
            return .init(policy: policy, notes: notes, entryForm: .config([("mode", settings.mode.rawValue)]))
        },
        readBuild: { build, settings throws(ConfigurationError) in
            // The same `.cer` files, at the top of the app's bundle (NSBundle.mainBundle's resources).
            let appFiles = build.files.filter { $0.name.hasSuffix(".cer") }
            // `policyWithPinningMode:` pins `defaultPinnedCertificates`, which AFSecurityPolicy.m loads from
            // `[NSBundle bundleForClass:[self class]]`: the app's bundle when AFNetworking is linked into the app, its
            // own when it is embedded as a framework (CocoaPods' use_frameworks!, Carthage). Where the two differ, the
            // app's code decides which it passes, and pinctl does not read code.
            if let framework = build.frameworks["AFNetworking"] {
                let ownFiles = framework.filter { $0.name.hasSuffix(".cer") }
                guard Set(ownFiles.map(\.bytes)) == Set(appFiles.map(\.bytes)) else {
                    throw ConfigurationError(file: build.bundleLabel + "Frameworks/AFNetworking.framework/", message:
                        "AFNetworking is embedded as a framework: policyWithPinningMode: pins the .cer files of its "
                        + "own bundle (\(ownFiles.count) there), certificatesInBundle:[NSBundle mainBundle] those of "
                        + "the app's (\(appFiles.count)); which the app passes is in its code: give the afnetworking "
                        + "app config: (the directory of the files it loads), or --library for the others")
                }
            }
            guard !appFiles.isEmpty else { return nil }
            let (certificates, notes) = try CertificateBundle.certificates(
                build.files.map { ($0.label, $0.name, $0.bytes) }, library: .afnetworking, extensions: [".cer"],
                in: build.bundleLabel)
            let policy = AFNetworkingPolicy(mode: settings.mode, pinnedCertificates: certificates, hosts: settings.hosts)
            return .init(policy: policy, notes: notes, entryForm: .config([("mode", settings.mode.rawValue)]))
        },
        exportForms: [CertificateBundle.format],
        flags: [
            LibraryFlag("--mode", .option(valueName: "mode", values: ["none", "certificate", "publickey"]),
                        help: "the pinning mode, none (the default), certificate or publickey."),
            LibraryFlag("--allow-invalid-certificates", .switch, help:
                "DANGEROUS: accept expired, self-signed and untrusted chains (allowInvalidCertificates)."),
            LibraryFlag("--no-validate-domain-name", .switch,
                        help: "do not check the host name or the leaf's TLS server usage (validatesDomainName = NO)."),
        ],
        flagsProblem: nil,
        importFlags: [ImportFlag(flag: LibraryFlag(
            "--mode", .option(valueName: "mode", values: ["certificate", "publickey"]),
            help: "the pinning mode a .cer bundle is used with, certificate or publickey (default: publickey).")
        ) { value, settings throws(InputError) in
            settings.mode = PinningMode(rawValue: value) ?? .publicKey
        }],
        policyFromFlags: { flags throws(InputError) in try AFNetworkingDefinition.policy(flags) }
    )
}

extension NativeConfiguration.Settings {
    /// afnetworking: the pinning mode a `.cer` bundle is used with (`mode:`; default publickey).
    public var mode: PinningMode {
        get { values["mode"].flatMap(PinningMode.init(rawValue:)) ?? .publicKey }
        set { values["mode"] = newValue.rawValue }
    }
}

/// How AFNetworking's policy is written in a policy file and on the command line; both build it with the same
/// `AFNetworkingPolicy.init`, so its rules (hash pins in certificate mode) hold alike.
enum AFNetworkingDefinition {
    /// `{mode, pins, allowInvalidCertificates, validatesDomainName}`.
    static func inline(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext) throws(ConfigurationError)
        -> AFNetworkingPolicy
    {
        var mode = PinningMode.none
        var pins = PinReferences()
        var pinsValue: YAMLValue?
        var allowInvalidCertificates = false
        var validatesDomainName = true
        for (key, member) in try value.mapping(allowed: ["mode", "pins", "allowInvalidCertificates", "validatesDomainName"]) {
            switch key {
            case "mode":
                let text = try member.string()
                guard let parsed = PinningMode(rawValue: text) else {
                    throw member.error("unknown mode '\(text)' (expected none, certificate or publickey)")
                }
                mode = parsed
            case "pins":
                pinsValue = member
                pins = try PinReferences.read(member, relativeTo: context.directory, pinFiles: context.pinFiles)
            case "allowInvalidCertificates": allowInvalidCertificates = try member.bool()
            default: validatesDomainName = try member.bool()
            }
        }
        if let hash = AFNetworkingPolicy.certificateModeRefusal(mode: mode, certificates: pins.certificates,
                                                                keyHashes: pins.keyHashes) {
            throw (pinsValue ?? value).error("mode certificate compares whole certificates: hash pins (\(hash.source)) "
                + "cannot serve it; pin certificate files, or use mode publickey")
        }
        return AFNetworkingPolicy(mode: mode, pinnedCertificates: pins.certificates, pinnedKeyHashes: pins.keyHashes,
                                  allowInvalidCertificates: allowInvalidCertificates,
                                  validatesDomainName: validatesDomainName, hosts: context.hosts)
    }

    /// `--mode`, the pins, `--allow-invalid-certificates` and `--no-validate-domain-name`.
    static func policy(_ flags: PolicyFlags) throws(InputError) -> LibraryDefinition.FlagPolicy {
        let pins = try flags.loadPins()
        let mode = flags.value("--mode").flatMap(PinningMode.init(rawValue:)) ?? .none
        if let hash = AFNetworkingPolicy.certificateModeRefusal(mode: mode, certificates: pins.certificates,
                                                                keyHashes: pins.keyHashes) {
            throw InputError("--mode certificate compares whole certificates: hash pins (\(hash.source)) "
                + "cannot serve it; pin certificate files, or use --mode publickey")
        }
        return .init(AFNetworkingPolicy(
            mode: mode, pinnedCertificates: pins.certificates, pinnedKeyHashes: pins.keyHashes,
            allowInvalidCertificates: flags.has("--allow-invalid-certificates"),
            validatesDomainName: !flags.has("--no-validate-domain-name")))
    }
}
