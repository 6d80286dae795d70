import Foundation
import OpenSSLWrapper

/// Why a policy rejected a chain, with the evidence a person needs to act on it.
public enum RejectionReason: Sendable {
    /// Invalid certificates allowed, domain validated, and no pinning (step 1).
    case contradiction
    /// OpenSSL could not build or verify a chain to the anchors.
    case untrustedChain(VerificationFailure, anchors: String)
    case hostnameMismatch(VerificationFailure, domain: String)
    /// The leaf's key usage or extended key usage does not allow TLS server authentication.
    case notForTLSServer(VerificationFailure)
    case expired(VerificationFailure)
    case notYetValid(VerificationFailure)
    /// A pinning mode with nothing pinned.
    case noPins(PinningMode)
    /// Certificate mode: the verified chain holds none of the pinned certificates.
    case pinNotInChain
    /// Public-key mode: no key in the candidate chain is pinned.
    case publicKeyNotPinned(pins: [PublicKeyPin])
    /// Nothing to evaluate.
    case noCertificate

    /// Classifies an OpenSSL verification failure into the reason codes of DESIGN §2.
    static func from(_ failure: VerificationFailure, domain: String?, anchors: String) -> RejectionReason {
        switch failure.code {
        case VerificationFailure.expired: .expired(failure)
        case VerificationFailure.notYetValid: .notYetValid(failure)
        case VerificationFailure.hostnameMismatch, VerificationFailure.ipAddressMismatch:
            .hostnameMismatch(failure, domain: domain ?? "")
        case VerificationFailure.invalidPurpose where failure.depth == 0: .notForTLSServer(failure)
        default: .untrustedChain(failure, anchors: anchors)
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
        case .noPins: "no-pins"
        case .pinNotInChain: "pin-not-in-chain"
        case .publicKeyNotPinned: "public-key-not-pinned"
        case .noCertificate: "no-certificate"
        }
    }

    /// The OpenSSL failure behind the reason, if any.
    public var verificationFailure: VerificationFailure? {
        switch self {
        case .untrustedChain(let failure, _), .hostnameMismatch(let failure, _), .notForTLSServer(let failure),
            .expired(let failure), .notYetValid(let failure):
            failure
        default: nil
        }
    }

    /// A configuration error rather than a verdict on the chain (exit 2).
    public var isConfigurationError: Bool {
        if case .contradiction = self { return true }
        return false
    }

    /// One sentence naming the check, the certificate (by its index in `chain`) and the host; lines after the first
    /// (the chain's keys and the pinned ones, for `public-key-not-pinned`) are indented by two spaces.
    public func message(chain: [X509Certificate], at time: Date) -> String {
        messageLines(chain: chain, at: time).joined(separator: "\n")
    }

    /// `message(chain:at:)` line by line, so a text renderer can escape each line whole: a certificate name holding
    /// a line break then cannot forge a line.
    public func messageLines(chain: [X509Certificate], at time: Date) -> [String] {
        if case .publicKeyNotPinned(let pins) = self {
            return ["public key not pinned: no key in the chain matches the \(pins.count) pinned key(s)", "  chain:"]
                + chain.enumerated().map { "    #\($0.offset) \(PinFormat.pin(of: $0.element)) \($0.element.subject)" }
                + ["  pinned:"] + pins.map { "    \($0.text) (\($0.source))" }
        }
        return [sentence(chain: chain, at: time)]
    }

    private func sentence(chain: [X509Certificate], at time: Date) -> String {
        let certificate = verificationFailure?.certificate
        let named = verificationFailure.flatMap { describe($0, in: chain) } ?? "the chain"
        switch self {
        case .contradiction:
            return "contradiction: validating a domain name for invalid or self-signed certificates requires pinning "
                + "(use --mode certificate or publickey with pins, or drop --allow-invalid-certificates)"
        case .untrustedChain(let failure, let anchors):
            if failure.isSettingFailure {
                return "untrusted chain: \(failure.message) (OpenSSL error \(failure.code), anchors: \(anchors))"
            }
            let pinned = anchors == PinnedAnchors.origin && failure.isMissingIssuer
            return "untrusted chain: \(named): \(failure.message) (OpenSSL error \(failure.code) at depth \(failure.depth),"
                + " anchors: \(anchors))" + (pinned ? ": the chain leads to no pinned certificate" : "")
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
        case .noPins(let mode):
            return "no pins: --mode \(mode.rawValue) needs at least one pin (--pins or --pin)"
        case .pinNotInChain:
            return "pin not in chain: no pinned certificate is in the verified chain"
        case .publicKeyNotPinned:
            return messageLines(chain: chain, at: time).joined(separator: "\n")
        case .noCertificate:
            return "no certificate: nothing was presented to evaluate"
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
