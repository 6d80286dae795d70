import ArgumentParser
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// AFSecurityPolicy's settings (DESIGN §2).
struct AFNetworkingOptions: ParsableArguments {
    @Option(help: "afnetworking: the pinning mode, none, certificate or publickey.")
    var mode: PinningMode = .none

    @Flag(help: "afnetworking, DANGEROUS: accept expired, self-signed and untrusted chains (allowInvalidCertificates).")
    var allowInvalidCertificates = false

    @Flag(help: "afnetworking: do not check the host name or the leaf's TLS server usage (validatesDomainName = NO).")
    var noValidateDomainName = false

    /// The flags given that belong to this library.
    var given: [String] {
        (mode == .none ? [] : ["--mode"]) + (allowInvalidCertificates ? ["--allow-invalid-certificates"] : [])
            + (noValidateDomainName ? ["--no-validate-domain-name"] : [])
    }

    /// AFNetworking's policy from `--mode`, the pins and the two switches; DESIGN §4's configuration errors.
    func policy(_ pins: LoadedPins) throws(InputError) -> (AFNetworkingPolicy, warnings: [String]) {
        var warnings: [String] = []
        var keyHashes = pins.keyHashes
        if mode == .certificate, !keyHashes.isEmpty {
            guard !pins.certificates.isEmpty else {
                throw InputError("--mode certificate compares whole certificates: hash pins (\(keyHashes[0].source)) "
                    + "cannot serve it; pin certificate files, or use --mode publickey")
            }
            warnings.append("\(keyHashes.count) hash pin(s) ignored: --mode certificate compares whole certificates")
            keyHashes = []
        }
        if allowInvalidCertificates, mode == .certificate {
            // The engine warns for the other modes, where the flag weakens more.
            warnings.append("--allow-invalid-certificates: the system trust gate is skipped; the chain must still "
                + "verify up to a pinned certificate")
        }
        let policy = AFNetworkingPolicy(
            mode: mode, pinnedCertificates: pins.certificates, pinnedKeyHashes: keyHashes,
            allowInvalidCertificates: allowInvalidCertificates, validatesDomainName: !noValidateDomainName)
        return (policy, warnings)
    }
}

/// One Alamofire evaluator and its flags (DESIGN §6).
struct AlamofireOptions: ParsableArguments {
    enum Evaluator: String, ExpressibleByArgument, CaseIterable {
        case standard = "default", pinnedCertificates = "pinned-certificates", publicKeys = "public-keys", disabled
        case revocation
    }

    @Option(help: ArgumentHelp(
        "alamofire: the evaluator, default, pinned-certificates, public-keys, revocation (options .any: the OCSP "
            + "responder; --revocation chooses another method) or disabled (default: pinned-certificates with pins, "
            + "else default).", valueName: "kind"))
    var evaluator: Evaluator?

    @Flag(help: "alamofire: the pinned certificates become the only anchors (acceptSelfSignedCertificates).")
    var acceptSelfSignedCertificates = false

    @Flag(help: "alamofire: performDefaultValidation = false (the host check, when on, still validates the chain).")
    var noDefaultValidation = false

    @Flag(help: "alamofire: validateHost = false, the host name is not checked.")
    var noValidateHost = false

    var given: [String] {
        (evaluator == nil ? [] : ["--evaluator"]) + (acceptSelfSignedCertificates ? ["--accept-self-signed-certificates"] : [])
            + (noDefaultValidation ? ["--no-default-validation"] : []) + (noValidateHost ? ["--no-validate-host"] : [])
    }

    func policy(_ pins: LoadedPins) throws(InputError) -> (AlamofirePolicy, warnings: [String]) {
        if let hash = pins.keyHashes.first {
            throw InputError("Alamofire pins certificates (or their keys), not hashes: \(hash.text) (\(hash.source)) "
                + "cannot be used; give certificate files with --pins")
        }
        let kind = evaluator ?? (pins.certificates.isEmpty ? .standard : .pinnedCertificates)
        if acceptSelfSignedCertificates, kind != .pinnedCertificates {
            throw InputError("--accept-self-signed-certificates is a setting of the pinned-certificates evaluator")
        }
        // DefaultTrustEvaluator(validateHost:) has no performDefaultValidation; DisabledTrustEvaluator has no flags.
        if noDefaultValidation, kind == .standard || kind == .disabled {
            throw InputError("--no-default-validation is a setting of the pinned-certificates, public-keys and "
                + "revocation evaluators, not of \(kind.rawValue)")
        }
        if noValidateHost, kind == .disabled {
            throw InputError("--no-validate-host: the disabled evaluator checks nothing")
        }
        var warnings: [String] = []
        if !pins.certificates.isEmpty, kind == .standard || kind == .disabled || kind == .revocation {
            warnings.append("\(pins.certificates.count) pin(s) ignored: the \(kind.rawValue) evaluator pins nothing")
        }
        let built: AlamofireEvaluator
        switch kind {
        case .standard: built = .standard(validateHost: !noValidateHost)
        case .pinnedCertificates:
            built = .pinnedCertificates(pins.certificates, acceptSelfSignedCertificates: acceptSelfSignedCertificates,
                                        performDefaultValidation: !noDefaultValidation, validateHost: !noValidateHost)
        case .publicKeys:
            built = .publicKeys(pins.certificates, performDefaultValidation: !noDefaultValidation,
                                validateHost: !noValidateHost)
        case .disabled: built = .disabled
        case .revocation:
            built = .revocation(performDefaultValidation: !noDefaultValidation, validateHost: !noValidateHost,
                                options: AlamofireRevocationOptions(["any"]))
        }
        return (AlamofirePolicy(evaluator: built), warnings)
    }
}

/// OkHttp's pattern for the pins (DESIGN §6).
struct OkHttpOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "okhttp: the CertificatePinner pattern the pins are added under, a host, *.example.com or **.example.com "
            + "(default: the host checked).", valueName: "pattern"))
    var pattern: String?

    var given: [String] { pattern == nil ? [] : ["--pattern"] }

    func policy(_ pins: [PublicKeyPin], domain: String?) throws(InputError) -> OkHttpPolicy {
        // OkHttp matches patterns against `HttpUrl.host`: a host HttpUrl refuses is a request the app cannot make.
        if let domain, let error = OkHttpPattern.hostError(domain) { throw InputError("host \(domain): \(error)") }
        guard let text = pattern ?? domain else { return OkHttpPolicy(entries: []) }
        let parsed: OkHttpPattern
        do {
            parsed = try OkHttpPattern(text)
        } catch {
            throw InputError("\(pattern == nil ? "host" : "--pattern") \(text): \(error.explanation)")
        }
        if let pattern, let problem = PolicyHostName.syntaxError(parsed.canonical, as: .okhttpPattern) {
            throw InputError("--pattern \(pattern): \(problem)")
        }
        return OkHttpPolicy(entries: pins.map { OkHttpPolicy.Entry(pattern: parsed, pin: $0) })
    }
}

/// One TrustKit pinned domain (DESIGN §6).
struct TrustKitOptions: ParsableArguments {
    @Option(name: .customLong("trustkit-domain"), help: ArgumentHelp(
        "trustkit: the pinned domain (default: the host checked).", valueName: "domain"))
    var domain: String?

    @Flag(help: "trustkit: the pins also cover every subdomain of the pinned domain (TSKIncludeSubdomains).")
    var includeSubdomains = false

    @Flag(help: "trustkit: a pin mismatch is only reported, the connection is allowed (TSKEnforcePinning = NO).")
    var reportOnly = false

    @Option(help: ArgumentHelp(
        "trustkit: once past 00:00 UTC of that day, pinning is off, fail-open (TSKExpirationDate).",
        valueName: "yyyy-MM-dd"))
    var expirationDate: String?

    var given: [String] {
        (domain == nil ? [] : ["--trustkit-domain"]) + (includeSubdomains ? ["--include-subdomains"] : [])
            + (reportOnly ? ["--report-only"] : []) + (expirationDate == nil ? [] : ["--expiration-date"])
    }

    func validate() throws {
        if let expirationDate, TrustKitOptions.day(expirationDate) == nil {
            throw ValidationError("--expiration-date \(expirationDate): expected a date written yyyy-MM-dd")
        }
    }

    static func day(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.map(\.count) == [4, 2, 2] else { return nil }
        return try? Timestamp.parse(text).get()
    }

    func policy(_ pins: LoadedPins, domain host: String?) throws(InputError) -> TrustKitPolicy {
        guard let name = domain ?? host else {
            throw InputError("--library trustkit needs a domain to pin: --host, or --trustkit-domain")
        }
        if let domain, let problem = PolicyHostName.syntaxError(domain, as: .host) {
            throw InputError("--trustkit-domain \(domain): \(problem)")
        }
        let entry = TrustKitDomainPolicy(
            publicKeyHashes: pins.certificates.map(\.keyPin) + pins.keyHashes, includeSubdomains: includeSubdomains,
            enforcePinning: !reportOnly, expirationDate: expirationDate.flatMap(Self.day))
        do {
            return try TrustKitPolicy(domains: [(name, entry)])
        } catch {
            throw InputError("TrustKit would refuse this configuration: \(error.message)")
        }
    }
}

/// The app's Network Security Configuration (DESIGN §6).
struct NSCOptions: ParsableArguments {
    @Option(name: .customLong("nsc-config"), help: ArgumentHelp(
        "nsc: the app's network_security_config.xml (@raw/ anchors are read from the raw/ folder beside its "
            + "folder).",
        valueName: "file"))
    var nscConfig: String?

    @Flag(help: "nsc: a debuggable build, whose debug-overrides apply.")
    var debuggable = false

    var given: [String] { (nscConfig == nil ? [] : ["--nsc-config"]) + (debuggable ? ["--debuggable"] : []) }

    func policy() throws(InputError) -> NSCPolicy {
        guard let nscConfig else { throw InputError("--library nsc needs --nsc-config FILE") }
        do {
            return NSCPolicy(config: try NSCXMLReader.read(nscConfig, debuggable: debuggable), debuggable: debuggable)
        } catch {
            throw InputError(error.description)
        }
    }
}
