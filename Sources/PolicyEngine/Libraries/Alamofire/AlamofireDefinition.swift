import FoundationEssentials
import OpenSSLWrapper

extension Library {
    /// Alamofire 5's `ServerTrustManager` and its evaluators (iOS).
    public static let alamofire = Library(name: "alamofire", displayName: "Alamofire")
}

extension LibraryDefinition {
    /// Alamofire: inline `{allHostsMustBeEvaluated, evaluators}`, a `.cer` bundle pinned for the hosts given, one
    /// evaluator (`--evaluator` and its switches) on the command line.
    static let alamofire = LibraryDefinition(
        library: .alamofire,
        policy: AlamofirePolicy.self,
        availability: [],
        inline: .decoder { value, context throws(ConfigurationError) in try AlamofireDefinition.inline(value, context) },
        configSettings: [ConfigSetting(key: "evaluator") { value, settings throws(ConfigurationError) in
            let text = try value.string()
            guard ["pinned-certificates", "public-keys"].contains(text) else {
                throw value.error("unknown evaluator '\(text)' for a bundle (expected pinned-certificates or public-keys)")
            }
            settings.publicKeys = text == "public-keys"
        }],
        readNative: { path, settings throws(ConfigurationError) in try AlamofireDefinition.bundle(path, settings) },
        readBuild: { build, settings throws(ConfigurationError) in
            // Bundle.main.af.certificates: the same extensions, at the top of the app's bundle.
            guard build.files.contains(where: { file in
                AlamofireDefinition.extensions.contains { file.name.hasSuffix($0) }
            }) else { return nil }
            return try AlamofireDefinition.bundle(build.files.map { ($0.label, $0.name, $0.bytes) },
                                                  in: build.bundleLabel, settings)
        },
        exportForms: [CertificateBundle.format],
        flags: [
            LibraryFlag("--evaluator", .option(valueName: "kind", values: AlamofireDefinition.flagKinds), help:
                "the evaluator, default, pinned-certificates, public-keys, revocation (options .any: the OCSP "
                    + "responder; --revocation chooses another method) or disabled (default: pinned-certificates with "
                    + "pins, else default)."),
            LibraryFlag("--accept-self-signed-certificates", .switch,
                        help: "the pinned certificates become the only anchors (acceptSelfSignedCertificates)."),
            LibraryFlag("--no-default-validation", .switch,
                        help: "performDefaultValidation = false (the host check, when on, still validates the chain)."),
            LibraryFlag("--no-validate-host", .switch, help: "validateHost = false, the host name is not checked."),
        ],
        flagsProblem: nil,
        importFlags: [ImportFlag(flag: LibraryFlag(
            "--public-keys", .switch, help: "a bundle's certificates pin keys (PublicKeysTrustEvaluator).")
        ) { _, settings throws(InputError) in settings.publicKeys = true }],
        policyFromFlags: { flags throws(InputError) in try AlamofireDefinition.policy(flags) }
    )
}

extension NativeConfiguration.Settings {
    /// alamofire: the bundle's certificates pin keys (`PublicKeysTrustEvaluator`) rather than certificates.
    public var publicKeys: Bool {
        get { values["evaluator"] == "public-keys" }
        set { values["evaluator"] = newValue ? "public-keys" : nil }
    }
}

/// How Alamofire's policy is written in a policy file, shipped as a bundle and given on the command line.
enum AlamofireDefinition {
    /// Bundle.af.certificates loads [".cer", ".CER", ".crt", ".CRT", ".der", ".DER"] from the top level.
    static let extensions: Set<String> = [".cer", ".CER", ".crt", ".CRT", ".der", ".DER"]

    /// A `.cer` bundle: the default evaluators pin the whole bundle for every host they are given.
    static func bundle(_ path: String, _ settings: NativeConfiguration.Settings) throws(ConfigurationError)
        -> NativeConfiguration.Reading
    {
        let read = try CertificateBundle.read(path, library: .alamofire, extensions: extensions)
        return try bundle(read, in: path, settings)
    }

    /// The bundle's files as a build ships them (each named by its label), in the bundle `place`.
    static func bundle(_ files: [(label: String, name: String, bytes: [UInt8]?)], in place: String,
                       _ settings: NativeConfiguration.Settings) throws(ConfigurationError)
        -> NativeConfiguration.Reading
    {
        try bundle(try CertificateBundle.certificates(files, library: .alamofire, extensions: extensions, in: place),
                   in: place, settings)
    }

    private static func bundle(_ read: (certificates: [PinnedCertificate], warnings: [String]), in place: String,
                               _ settings: NativeConfiguration.Settings) throws(ConfigurationError)
        -> NativeConfiguration.Reading
    {
        guard !settings.hosts.isEmpty else {
            throw ConfigurationError(file: place, message: "Alamofire's evaluators are per host, and a bundle names "
                + "none: list the hosts the app evaluates with it")
        }
        let evaluator: AlamofireEvaluator = settings.publicKeys
            ? .publicKeys(read.certificates, performDefaultValidation: true, validateHost: true)
            : .pinnedCertificates(read.certificates, acceptSelfSignedCertificates: false, performDefaultValidation: true,
                                  validateHost: true)
        return .init(policy: AlamofirePolicy(evaluators: settings.hosts.map { ($0, evaluator) }), notes: read.warnings,
                     entryForm: .config(settings.publicKeys ? [("evaluator", "public-keys")] : []))
    }

    /// `{allHostsMustBeEvaluated, evaluators: {HOST: {kind, certificates | keys, acceptSelfSignedCertificates,
    /// performDefaultValidation, validateHost, evaluators}}}`.
    static func inline(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext) throws(ConfigurationError)
        -> AlamofirePolicy
    {
        var mustEvaluate = true
        var evaluators: [(host: String, evaluator: AlamofireEvaluator)] = []
        for (key, member) in try value.mapping(allowed: ["allHostsMustBeEvaluated", "evaluators"]) {
            if key == "allHostsMustBeEvaluated" {
                mustEvaluate = try member.bool()
                continue
            }
            for (host, entry) in try member.anyMapping() {
                if let problem = PolicyHostName.syntaxError(host, as: .alamofireKey) { throw entry.error(problem) }
                evaluators.append((host, try evaluator(entry, context)))
            }
        }
        return AlamofirePolicy(allHostsMustBeEvaluated: mustEvaluate, evaluators: evaluators, hosts: context.hosts)
    }

    private static func evaluator(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext)
        throws(ConfigurationError)
        -> AlamofireEvaluator
    {
        let all = try value.mapping(allowed: [])
        guard let kindValue = all.first(where: { $0.key == "kind" })?.value else {
            throw value.error("an evaluator needs kind: default, pinned-certificates, public-keys, revocation, disabled "
                + "or composite")
        }
        let kind = try kindValue.string()
        let allowed: [String]
        switch kind {
        case "default": allowed = ["kind", "validateHost"]
        case "pinned-certificates":
            allowed = ["kind", "certificates", "acceptSelfSignedCertificates", "performDefaultValidation", "validateHost"]
        case "public-keys": allowed = ["kind", "keys", "performDefaultValidation", "validateHost"]
        case "disabled": allowed = ["kind"]
        case "composite": allowed = ["kind", "evaluators"]
        case "revocation": allowed = ["kind", "performDefaultValidation", "validateHost", "options"]
        default:
            throw kindValue.error("unknown evaluator kind '\(kind)' (expected default, pinned-certificates, "
                + "public-keys, revocation, disabled or composite)")
        }
        let members = try value.mapping(allowed: allowed)
        func flag(_ name: String, _ fallback: Bool) throws(ConfigurationError) -> Bool {
            guard let member = members.first(where: { $0.key == name })?.value else { return fallback }
            return try member.bool()
        }
        func certificates(_ name: String) throws(ConfigurationError) -> [PinnedCertificate] {
            guard let member = members.first(where: { $0.key == name })?.value else {
                throw value.error("\(kind) needs \(name): certificate files or directories")
            }
            return try PinReferences.certificates(member, relativeTo: context.directory,
                                                  pinFiles: context.pinFiles, library: "Alamofire")
        }
        switch kind {
        case "default":
            return .standard(validateHost: try flag("validateHost", true))
        case "pinned-certificates":
            return .pinnedCertificates(
                try certificates("certificates"),
                acceptSelfSignedCertificates: try flag("acceptSelfSignedCertificates", false),
                performDefaultValidation: try flag("performDefaultValidation", true),
                validateHost: try flag("validateHost", true))
        case "public-keys":
            return .publicKeys(try certificates("keys"), performDefaultValidation: try flag("performDefaultValidation", true),
                               validateHost: try flag("validateHost", true))
        case "disabled":
            return .disabled
        case "revocation":
            var options: [String] = []
            if let list = members.first(where: { $0.key == "options" })?.value {
                for element in try list.sequence() {
                    let name = try element.string()
                    guard AlamofireRevocationOptions.names.contains(name) else {
                        throw element.error("unknown revocation option '\(name)' (expected "
                            + AlamofireRevocationOptions.names.joined(separator: ", ") + ")")
                    }
                    options.append(name)
                }
            }
            return .revocation(performDefaultValidation: try flag("performDefaultValidation", true),
                               validateHost: try flag("validateHost", true),
                               options: AlamofireRevocationOptions(options.isEmpty ? ["any"] : options))
        default:
            guard let list = members.first(where: { $0.key == "evaluators" })?.value else {
                throw value.error("composite needs evaluators: a list of evaluators")
            }
            var inner: [AlamofireEvaluator] = []
            for element in try list.sequence() { inner.append(try evaluator(element, context)) }
            return .composite(inner)
        }
    }

    /// The evaluator kinds `--evaluator` takes.
    static let flagKinds = ["default", "pinned-certificates", "public-keys", "disabled", "revocation"]

    /// One evaluator for every host: `--evaluator` (default: pinned-certificates with pins, else default) and its
    /// switches, over the certificates of `--pins`.
    static func policy(_ flags: PolicyFlags) throws(InputError) -> LibraryDefinition.FlagPolicy {
        let pins = try flags.loadPins()
        if let hash = pins.keyHashes.first {
            throw InputError("Alamofire pins certificates (or their keys), not hashes: \(hash.text) (\(hash.source)) "
                + "cannot be used; give certificate files with --pins")
        }
        let kind = flags.value("--evaluator") ?? (pins.certificates.isEmpty ? "default" : "pinned-certificates")
        let acceptSelfSigned = flags.has("--accept-self-signed-certificates")
        let performDefaultValidation = !flags.has("--no-default-validation")
        let validateHost = !flags.has("--no-validate-host")
        if acceptSelfSigned, kind != "pinned-certificates" {
            throw InputError("--accept-self-signed-certificates is a setting of the pinned-certificates evaluator")
        }
        // DefaultTrustEvaluator(validateHost:) has no performDefaultValidation; DisabledTrustEvaluator has no flags.
        if !performDefaultValidation, kind == "default" || kind == "disabled" {
            throw InputError("--no-default-validation is a setting of the pinned-certificates, public-keys and "
                + "revocation evaluators, not of \(kind)")
        }
        if !validateHost, kind == "disabled" {
            throw InputError("--no-validate-host: the disabled evaluator checks nothing")
        }
        var warnings: [String] = []
        if !pins.certificates.isEmpty, kind == "default" || kind == "disabled" || kind == "revocation" {
            warnings.append("\(pins.certificates.count) pin(s) ignored: the \(kind) evaluator pins nothing")
        }
        let built: AlamofireEvaluator
        switch kind {
        case "default": built = .standard(validateHost: validateHost)
        case "pinned-certificates":
            built = .pinnedCertificates(pins.certificates, acceptSelfSignedCertificates: acceptSelfSigned,
                                        performDefaultValidation: performDefaultValidation, validateHost: validateHost)
        case "public-keys":
            built = .publicKeys(pins.certificates, performDefaultValidation: performDefaultValidation,
                                validateHost: validateHost)
        case "disabled": built = .disabled
        case "revocation":
            built = .revocation(performDefaultValidation: performDefaultValidation, validateHost: validateHost,
                                options: AlamofireRevocationOptions(["any"]))
        default:
            throw InputError("--evaluator \(kind): expected " + flagKinds.joined(separator: ", "))
        }
        return .init(AlamofirePolicy(evaluator: built), warnings: warnings)
    }
}
