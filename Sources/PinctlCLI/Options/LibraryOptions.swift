import ArgumentParser
import FoundationEssentials
import PolicyEngine

// Each library's own flags, parsed only: they become `PolicyFlags` settings, and the library's definition
// (PolicyEngine/Libraries) says what they mean, as it does for the policy file.

/// A group of one library's flags.
protocol LibraryFlagGroup: ParsableArguments {
    /// The flags given, in order: the long name and its value ("" for a switch).
    var settings: [(flag: String, value: String)] { get }
}

extension LibraryFlagGroup {
    /// The names of the flags given.
    var given: [String] { settings.map(\.flag) }
}

/// AFSecurityPolicy's settings (DESIGN §2).
struct AFNetworkingOptions: LibraryFlagGroup {
    @Option(help: "afnetworking: the pinning mode, none, certificate or publickey.")
    var mode: PinningMode = .none

    @Flag(help: "afnetworking, DANGEROUS: accept expired, self-signed and untrusted chains (allowInvalidCertificates).")
    var allowInvalidCertificates = false

    @Flag(help: "afnetworking: do not check the host name or the leaf's TLS server usage (validatesDomainName = NO).")
    var noValidateDomainName = false

    var settings: [(flag: String, value: String)] {
        (mode == .none ? [] : [("--mode", mode.rawValue)])
            + (allowInvalidCertificates ? [("--allow-invalid-certificates", "")] : [])
            + (noValidateDomainName ? [("--no-validate-domain-name", "")] : [])
    }
}

/// One Alamofire evaluator and its flags (DESIGN §6).
struct AlamofireOptions: LibraryFlagGroup {
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

    var settings: [(flag: String, value: String)] {
        (evaluator.map { [("--evaluator", $0.rawValue)] } ?? [])
            + (acceptSelfSignedCertificates ? [("--accept-self-signed-certificates", "")] : [])
            + (noDefaultValidation ? [("--no-default-validation", "")] : [])
            + (noValidateHost ? [("--no-validate-host", "")] : [])
    }
}

/// OkHttp's pattern for the pins (DESIGN §6).
struct OkHttpOptions: LibraryFlagGroup {
    @Option(help: ArgumentHelp(
        "okhttp: the CertificatePinner pattern the pins are added under, a host, *.example.com or **.example.com "
            + "(default: the host checked).", valueName: "pattern"))
    var pattern: String?

    var settings: [(flag: String, value: String)] { pattern.map { [("--pattern", $0)] } ?? [] }
}

/// One TrustKit pinned domain (DESIGN §6).
struct TrustKitOptions: LibraryFlagGroup {
    @Option(name: .customLong("trustkit-domain"), help: ArgumentHelp(
        "trustkit: the pinned domain (default: the host checked).", valueName: "domain"))
    var domain: String?

    @Flag(help: ArgumentHelp("trustkit: the pins also cover every subdomain of the pinned domain "
        + "(TSKIncludeSubdomains); ats: names one label below it too (NSIncludesSubdomains)."))
    var includeSubdomains = false

    @Flag(help: "trustkit: a pin mismatch is only reported, the connection is allowed (TSKEnforcePinning = NO).")
    var reportOnly = false

    @Option(help: ArgumentHelp(
        "trustkit: once past 00:00 UTC of that day, pinning is off, fail-open (TSKExpirationDate).",
        valueName: "yyyy-MM-dd"))
    var expirationDate: String?

    var settings: [(flag: String, value: String)] {
        (domain.map { [("--trustkit-domain", $0)] } ?? []) + (includeSubdomains ? [("--include-subdomains", "")] : [])
            + (reportOnly ? [("--report-only", "")] : []) + (expirationDate.map { [("--expiration-date", $0)] } ?? [])
    }
}

/// The app's Network Security Configuration (DESIGN §6).
struct NSCOptions: LibraryFlagGroup {
    @Option(name: .customLong("nsc-config"), help: ArgumentHelp(
        "nsc: the app's network_security_config.xml (@raw/ anchors are read from the raw/ folder beside its "
            + "folder).",
        valueName: "file"))
    var nscConfig: String?

    @Flag(help: "nsc: a debuggable build, whose debug-overrides apply.")
    var debuggable = false

    var settings: [(flag: String, value: String)] {
        (nscConfig.map { [("--nsc-config", $0)] } ?? []) + (debuggable ? [("--debuggable", "")] : [])
    }
}

/// One App Transport Security pinned domain (DESIGN §6).
struct ATSOptions: LibraryFlagGroup {
    enum IdentityKind: String, ExpressibleByArgument, CaseIterable {
        case ca, leaf
    }

    @Option(name: .customLong("ats-domain"), help: ArgumentHelp(
        "ats: the NSPinnedDomains key (default: the host checked).", valueName: "domain"))
    var domain: String?

    @Option(name: .customLong("ats-identities"), help: ArgumentHelp(
        "ats: which list --pin and --pins fill, ca (NSPinnedCAIdentities: any certificate of the built chain but the "
            + "leaf) or leaf (NSPinnedLeafIdentities: the leaf only). Default: ca.", valueName: "kind"))
    var identities: IdentityKind?

    var settings: [(flag: String, value: String)] {
        (domain.map { [("--ats-domain", $0)] } ?? []) + (identities.map { [("--ats-identities", $0.rawValue)] } ?? [])
    }
}
