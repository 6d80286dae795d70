import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import TextSyntax

extension Evaluation {
    /// The verdict as JSON and lint name it. A contradiction is a configuration error (exit 2), yet DESIGN §2 gives
    /// it the verdict "rejected".
    var verdictWord: String { isTrusted ? "trusted" : "rejected" }
}

extension TargetReport {
    var verdictWord: String { evaluation.verdictWord }

    /// "mode publickey, 3 pin(s)": the policy in a few words, for text output.
    var policyLine: String {
        let fields = policy.summary.map { key, value -> String in
            switch value {
            case .text(let text): return key == "mode" ? "mode \(text)" : "\(key) \(text)"
            case .count(let count):
                // "3 pin(s)", "1 pattern", "2 domains": the count before the field's name.
                if key == "pins" { return "\(count) pin(s)" }
                return "\(count) " + (count == 1 && key.hasSuffix("s") ? String(key.dropLast()) : key)
            case .flag(let on): return on ? key : ""
            }
        }
        let shown = fields.filter { !$0.isEmpty && !$0.hasPrefix("validatesDomainName") }
        // AFNetworking is the default: its results read as they always have, without the library's name.
        return ((policy.library == .afnetworking ? [] : [policy.library.rawValue]) + shown).joined(separator: ", ")
    }

    /// The JSON `policy` object of a policy's summary.
    static func json(_ summary: [(String, SummaryValue)]) -> JSONValue {
        .object(summary.map { key, value in
            switch value {
            case .text(let text): (key, .string(text))
            case .flag(let on): (key, .bool(on))
            case .count(let count): (key, .number(count))
            }
        })
    }

    var json: JSONValue {
        var members: [(String, JSONValue)] = [("target", .string(target))]
        if let app {
            members += [("app", .string(app.name)), ("versions", .array(app.versions.map { .string($0) }))]
        }
        if let platform {
            members.append(("platform", .object([("name", .string(platform.platform)),
                                                 ("versions", .string(platform.versions))])))
        }
        members += [
            ("library", .string(policy.library.rawValue)),
            ("domain", JSONValue(domain)),
            ("evaluatedAt", .string(Timestamp.iso8601(evaluation.time))),
            ("policy", Self.json(policy.summary)),
        ]
        members += EvaluationJSON.verdict(evaluation)
        if let tls {
            members.append(("tls", tls.json))
        }
        if let edge { members.append(("edge", edge.json)) }
        members += EvaluationJSON.chain(evaluation)
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
