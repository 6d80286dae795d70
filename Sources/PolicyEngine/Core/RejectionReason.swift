import FoundationEssentials
import OpenSSLWrapper
import TextSyntax

/// Why a policy rejected a chain, with the evidence a person needs to act on it; one case per JSON `reason.code`.
public enum RejectionReason: Sendable {
    /// AFNetworking: invalid certificates allowed, domain validated, and no pinning. A configuration error.
    case contradiction
    /// OpenSSL could not build or verify a chain to the anchors (described in words).
    case untrustedChain(VerificationFailure, anchors: String, leadsToNoPin: Bool = false)
    case hostnameMismatch(VerificationFailure, domain: String)
    /// The leaf's key usage or extended key usage does not allow TLS server authentication.
    case notForTLSServer(VerificationFailure)
    case expired(VerificationFailure)
    case notYetValid(VerificationFailure)
    /// The platform version judged on refuses the chain by a rule of its own (DESIGN §12), named with its source in
    /// the failure's message.
    case platformRule(VerificationFailure)
    /// A pinning policy with nothing pinned; the sentence says what is missing.
    case noPins(String)
    /// The validated chain holds none of the pinned certificates.
    case pinNotInChain(pins: [PinnedCertificate])
    /// No key of the chain is pinned.
    case publicKeyNotPinned(pins: [PublicKeyPin], format: PinFailureFormat)
    /// Alamofire: the host has no evaluator and every host must be evaluated.
    case noEvaluator(host: String)
    /// TrustKit: a certificate's key is of a kind TrustKit cannot hash, which blocks the connection.
    case unsupportedKey(X509Certificate, key: String)
    /// Nothing to evaluate.
    case noCertificate
    /// The leaf is revoked, as an OCSP response or CRL of its issuer says (DESIGN §11).
    case revoked(X509Certificate, source: String, on: Date?, reason: String?)
    /// An OCSP response (or CRL) that cannot be relied on: unsigned by the issuer, stale, about another certificate.
    case revocationInvalid(source: String, problem: String, isOCSP: Bool)

    /// Classifies an OpenSSL verification failure into the reason codes of DESIGN §2.
    public static func from(_ failure: VerificationFailure, domain: String?, anchors: String, leadsToNoPin: Bool = false)
        -> RejectionReason
    {
        switch failure.code {
        case VerificationFailure.expired: .expired(failure)
        case VerificationFailure.notYetValid: .notYetValid(failure)
        case VerificationFailure.hostnameMismatch, VerificationFailure.ipAddressMismatch:
            .hostnameMismatch(failure, domain: domain ?? "")
        case VerificationFailure.invalidPurpose where failure.depth == 0: .notForTLSServer(failure)
        case PlatformRules.failureCode: .platformRule(failure)
        default: .untrustedChain(failure, anchors: anchors, leadsToNoPin: leadsToNoPin && failure.isMissingIssuer)
        }
    }

    /// The JSON `reason.code`.
    public var code: String {
        switch self {
        case .contradiction: "contradiction"
        case .untrustedChain: "untrusted-chain"
        case .hostnameMismatch: "hostname-mismatch"
        case .notForTLSServer: "not-for-tls-server"
        case .expired: "expired"
        case .notYetValid: "not-yet-valid"
        case .platformRule: "platform-rule"
        case .noPins: "no-pins"
        case .pinNotInChain: "pin-not-in-chain"
        case .publicKeyNotPinned: "public-key-not-pinned"
        case .noEvaluator: "no-evaluator"
        case .unsupportedKey: "unsupported-key"
        case .noCertificate: "no-certificate"
        case .revoked: "revoked"
        // DESIGN §11 names only ocsp-invalid; a CRL that cannot be relied on gets a code of its own.
        case .revocationInvalid(_, _, let isOCSP): isOCSP ? "ocsp-invalid" : "crl-invalid"
        }
    }

    /// The OpenSSL failure behind the reason, if any.
    public var verificationFailure: VerificationFailure? {
        switch self {
        case .untrustedChain(let failure, _, _), .hostnameMismatch(let failure, _), .notForTLSServer(let failure),
            .expired(let failure), .notYetValid(let failure), .platformRule(let failure):
            failure
        default: nil
        }
    }

    /// The certificate the reason is about, if one is.
    public var certificate: X509Certificate? {
        if case .unsupportedKey(let certificate, _) = self { return certificate }
        if case .revoked(let certificate, _, _, _) = self { return certificate }
        return verificationFailure?.certificate
    }

    /// A configuration error rather than a verdict on the chain (exit 2).
    public var isConfigurationError: Bool {
        if case .contradiction = self { return true }
        return false
    }

    /// The sentence naming the check, the certificate (by its index in `chain`) and the host, line by line: lines
    /// after the first (the chain's keys and the pinned ones) are indented, and a text renderer escapes each line
    /// whole, so a certificate name holding a line break cannot forge a line.
    public func messageLines(chain: [X509Certificate], at time: Date) -> [String] {
        switch self {
        case .publicKeyNotPinned(let pins, .okhttp(let host)):
            // OkHttp's SSLPeerUnverifiedException, line for line (CertificatePinner.check): its peer lines always
            // show sha256 pins, whatever the pins' algorithm.
            // pinctl's diagnosis follows OkHttp's lines, so that those stay as developers know them.
            let diagnoses = pins.flatMap { pin in Self.diagnosis(of: pin, in: chain).map { "  \(pin.text) is \($0)" } }
            return ["Certificate pinning failure!", "  Peer certificate chain:"]
                + chain.map { "    \(PinFormat.pin(of: $0)): \($0.subject)" }
                + ["  Pinned certificates for \(host):"] + pins.map { "    \($0.text)" } + diagnoses
        case .publicKeyNotPinned(let pins, .pinctl):
            return ["public key not pinned: no key in the chain matches the \(pins.count) pinned key(s)", "  chain:"]
                + chain.enumerated().map { "    #\($0.offset) \(PinFormat.pin(of: $0.element)) \($0.element.subject)" }
                + ["  pinned:"] + pins.flatMap { pin in
                    ["    \(pin.text) (\(pin.source))"] + Self.diagnosis(of: pin, in: chain).map { "      which is \($0)" }
                }
        case .publicKeyNotPinned(let pins, .compared(let indices, let pinned)):
            let compared = indices.clamped(to: chain.indices)
            let which = compared.isEmpty ? "no certificate of the chain is compared with them"
                : compared.count == 1 ? "certificate #\(compared.lowerBound) does not match them"
                : "no key of certificates #\(compared.lowerBound) to #\(compared.upperBound - 1) matches them"
            return ["public key not pinned: \(pinned) holds \(pins.count) key(s); \(which)", "  chain:"]
                + chain.enumerated().map { index, certificate in
                    "    #\(index) \(PinFormat.pin(of: certificate)) \(certificate.subject)"
                        + (compared.contains(index) ? "" : " (not compared)")
                }
                + ["  pinned:"] + pins.flatMap { pin in
                    let elsewhere = chain.indices.filter { !compared.contains($0) && pin.matches(chain[$0]) }
                    return ["    \(pin.text) (\(pin.source))"]
                        + (elsewhere.isEmpty ? Self.diagnosis(of: pin, in: chain).map { "      which is \($0)" }
                            : elsewhere.map { "      which is the key of certificate #\($0), never compared with \(pinned)" })
                }
        case .pinNotInChain(let pins):
            return ["pin not in chain: no pinned certificate is in the verified chain"]
                + (pins.isEmpty ? [] : ["  pinned:"] + pins.map { "    \($0.certificate.subject) (\($0.source))" })
        default:
            return [sentence(chain: chain, at: time)]
        }
    }

    /// What a pin that matches no key is instead (DESIGN §10), e.g. "the SHA-256 of certificate 1's DER (its
    /// fingerprint), not of its SPKI: use sha256/…": a pin copied from the wrong place is the commonest way a
    /// configuration matches nothing.
    private static func diagnosis(of pin: PublicKeyPin, in chain: [X509Certificate]) -> [String] {
        PinDiagnosis.explain(pin.text, in: chain).filter { !$0.isCorrect }.map(\.message)
    }

    private func sentence(chain: [X509Certificate], at time: Date) -> String {
        let certificate = verificationFailure?.certificate
        let named = verificationFailure.flatMap { describe($0, in: chain) } ?? "the chain"
        switch self {
        case .contradiction:
            return "contradiction: validating a domain name for invalid or self-signed certificates requires pinning "
                + "(pin certificates or keys, or do not allow invalid certificates)"
        case .untrustedChain(let failure, let anchors, let leadsToNoPin):
            if failure.isSettingFailure {
                return "untrusted chain: \(failure.message) (OpenSSL error \(failure.code), anchors: \(anchors))"
            }
            return "untrusted chain: \(named): \(failure.message) (OpenSSL error \(failure.code) at depth \(failure.depth),"
                + " anchors: \(anchors))" + (leadsToNoPin ? ": the chain leads to no pinned certificate" : "")
        case .hostnameMismatch(_, let domain):
            let names = certificate?.subjectAlternativeNames ?? []
            let listed = names.isEmpty ? "no subject alternative names (a common name is never used)" : names.joined(separator: ", ")
            let kind = DomainName(domain).isIPAddress ? "IP address" : "host name"
            return "\(kind) mismatch: \(named) is not valid for \(domain); it names \(listed)"
        case .notForTLSServer:
            return "not for TLS servers: \(named): its key usage or extended key usage does not allow TLS server authentication"
        case .expired:
            let date = certificate.map { Timestamp.iso8601($0.notAfter) } ?? "?"
            return "expired: \(named) expired on \(date) (evaluated at \(Timestamp.iso8601(time)))"
        case .notYetValid:
            let date = certificate.map { Timestamp.iso8601($0.notBefore) } ?? "?"
            return "not yet valid: \(named) is valid only from \(date) (evaluated at \(Timestamp.iso8601(time)))"
        case .platformRule(let failure):
            return "platform rule: \(named): \(failure.message)"
        case .noPins(let what):
            return "no pins: \(what)"
        case .noEvaluator(let host):
            return "no evaluator: a ServerTrustEvaluating value is required for host \(host) but none was found "
                + "(allHostsMustBeEvaluated is on)"
        case .unsupportedKey(let certificate, let key):
            let index = chain.firstIndex(of: certificate).map { "#\($0) " } ?? ""
            return "unsupported key: certificate \(index)(\(certificate.subject)) has a \(key) key, which TrustKit cannot "
                + "hash (it hashes RSA 2048, 3072 and 4096 and EC P-256 and P-384 keys only), so it blocks the connection"
        case .noCertificate:
            return "no certificate: nothing was presented to evaluate"
        case .revoked(let certificate, let source, let date, let reason):
            let index = chain.firstIndex(of: certificate).map { "#\($0) " } ?? ""
            return "revoked: certificate \(index)(\(certificate.subject)) was revoked"
                + (date.map { " on \(Timestamp.iso8601($0))" } ?? "") + (reason.map { " (\($0))" } ?? "")
                + ", says \(source); the server must get a new certificate"
        case .revocationInvalid(let source, let problem, let isOCSP):
            return "\(isOCSP ? "OCSP" : "CRL") invalid: \(source) cannot be relied on: \(problem)"
        case .pinNotInChain, .publicKeyNotPinned:
            return messageLines(chain: chain, at: time).joined(separator: "\n")
        }
    }

    /// "certificate #1 (CN=…)" by its index in `chain`; by subject alone when it is not in the chain, e.g. a trust
    /// store entry that could not be read.
    private func describe(_ failure: VerificationFailure, in chain: [X509Certificate]) -> String? {
        if let certificate = failure.certificate, let index = chain.firstIndex(of: certificate) {
            return "certificate #\(index) (\(certificate.subject))"
        }
        if let certificate = failure.certificate { return "certificate \(certificate.subject)" }
        return failure.subject.map { "certificate \($0) (a trust store entry that cannot be read)" }
    }
}

/// How a `public-key-not-pinned` message is laid out: pinctl's, or the library's own words where developers know them.
public enum PinFailureFormat: Sendable {
    case pinctl
    /// OkHttp's "Certificate pinning failure!" message, for the canonical host.
    case okhttp(host: String)
    /// The pins are compared with some certificates of the chain only, those at `indices` (Apple's
    /// `NSPinnedLeafIdentities` with the leaf, `NSPinnedCAIdentities` with the others); `pinned` names the list.
    case compared(indices: Range<Int>, pinned: String)
}
