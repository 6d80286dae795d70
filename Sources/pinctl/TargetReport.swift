import Foundation
import OpenSSLWrapper
import PolicyEngine

/// Everything printed about one target: what was evaluated, how, and the outcome.
struct TargetReport: Sendable {
    let target: String
    let domain: String?
    let policy: SecurityPolicy
    let evaluation: Evaluation
    /// Warnings from the command line (ignored hash pins, …) before the engine's own.
    let extraWarnings: [String]
    let tls: TLSInfo?

    var warnings: [String] { extraWarnings + evaluation.warnings }

    /// A contradiction is a configuration error (exit 2), yet DESIGN §2 gives it the verdict "rejected".
    var verdictWord: String { evaluation.isTrusted ? "trusted" : "rejected" }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("target", .string(target)),
            ("domain", JSONValue(domain)),
            ("evaluatedAt", .string(Timestamp.iso8601(evaluation.time))),
            ("policy", .object([
                ("mode", .string(policy.mode.rawValue)),
                ("allowInvalidCertificates", .bool(policy.allowInvalidCertificates)),
                ("validatesDomainName", .bool(policy.validatesDomainName)),
                ("pins", .number(policy.pinCount)),
            ])),
            ("verdict", .string(verdictWord)),
        ]
        if let rejection = evaluation.rejection {
            members.append(("reason", .object([
                ("code", .string(rejection.code)),
                ("message", .string(evaluation.rejectionMessage ?? "")),
                ("certificate", evaluation.rejectedCertificateIndex.map { .number($0) } ?? .null),
            ])))
        }
        if let match = evaluation.matchedPin {
            members.append(("matchedPin", .object([
                ("source", .string(match.source.description)),
                ("certificate", .number(match.certificateIndex)),
            ])))
        }
        if let tls {
            members.append(("tls", tls.json))
        }
        members.append(("chain", .array(evaluation.chain.enumerated().map { index, certificate in
            CertificateDescription(certificate, at: evaluation.time).json(presented: index < evaluation.presentedCount)
        })))
        members.append(("warnings", .array(warnings.map { .string($0) })))
        return .object(members)
    }
}

/// The per-certificate fields of DESIGN §5 and of `pinctl chain`.
struct CertificateDescription {
    let certificate: X509Certificate
    let time: Date

    init(_ certificate: X509Certificate, at time: Date) {
        self.certificate = certificate
        self.time = time
    }

    var daysLeft: Int { certificate.daysLeft(at: time) }

    var sha256Hex: String { Hex.upper(certificate.sha256Fingerprint) }

    /// "2025-01-01 → 2125-01-01 (36524 days left)" or "… (expired 1970 days ago)".
    var validity: String {
        let span = "\(Timestamp.iso8601(certificate.notBefore)) → \(Timestamp.iso8601(certificate.notAfter))"
        if certificate.notBefore > time { return span + " (not yet valid)" }
        return daysLeft >= 0 ? span + " (\(daysLeft) days left)" : span + " (expired \(-daysLeft) days ago)"
    }

    func json(presented: Bool) -> JSONValue {
        .object([
            ("subject", .string(certificate.subject)),
            ("issuer", .string(certificate.issuer)),
            ("serial", .string(certificate.serialNumber)),
            ("notBefore", .string(Timestamp.iso8601(certificate.notBefore))),
            ("notAfter", .string(Timestamp.iso8601(certificate.notAfter))),
            ("daysLeft", .number(daysLeft)),
            ("sans", .array(certificate.subjectAlternativeNames.map { .string($0) })),
            ("key", .string(certificate.keyDescription)),
            ("signatureAlgorithm", .string(certificate.signatureAlgorithm)),
            ("sha256", .string(sha256Hex)),
            ("spki", .string(PinFormat.pin(of: certificate))),
            ("presented", .bool(presented)),
        ])
    }
}
