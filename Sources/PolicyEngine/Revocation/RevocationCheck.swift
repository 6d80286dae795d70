import FoundationEssentials
import OpenSSLWrapper

/// Judges revocation evidence against an evaluation's built chain: a trusted verdict becomes `revoked` or
/// `ocsp-invalid` when the evidence says so. Only the leaf is checked (as a stapled response covers only the leaf),
/// and only after the policy trusted the chain, so the issuer that signs the evidence is one the policy accepted.
public enum RevocationCheck {
    /// The evaluation with the evidence applied: unchanged unless it was trusted.
    public static func apply(_ evidence: RevocationEvidence, to evaluation: Evaluation) -> Evaluation {
        guard evidence.mode != .none, evaluation.isTrusted else { return evaluation }
        var warnings = evaluation.warnings
        let outcome = judge(evidence, chain: evaluation.builtChain.certificates, at: evaluation.time,
                            warnings: &warnings)
        let verdict = outcome.map { Verdict.rejected(Rejection($0)) } ?? evaluation.verdict
        return evaluation.with(verdict: verdict, warnings: warnings)
    }

    /// The first reason to reject, or nil; what is only doubtful goes into `warnings`.
    static func judge(_ evidence: RevocationEvidence, chain: [X509Certificate], at time: Date,
                      warnings: inout [String]) -> RejectionReason? {
        guard let leaf = chain.first else { return nil }
        let leafName = "certificate #0 (\(leaf.subject))"
        // The issuer must be the built chain's next certificate: the one the policy trusted to sign the leaf.
        guard chain.count > 1, leaf.isIssued(by: chain[1]) else {
            return soft("revocation not checked: \(leafName) has no issuer in the built chain to sign an answer",
                        evidence, &warnings)
        }
        let issuer = chain[1]
        var documents = evidence.documents
        // With ocsp, a staple stands in for the responder it came from (the command layer then fetched nothing).
        if evidence.mode == .stapled || evidence.mode == .ocsp && documents.isEmpty && evidence.staple != nil {
            guard let staple = evidence.staple else {
                return soft("no stapled OCSP response: the server did not staple one for \(leafName)", evidence,
                            &warnings)
            }
            documents = [RevocationDocument(kind: .ocsp, source: "the stapled OCSP response", content: .success(staple))]
        }
        if documents.isEmpty {
            return soft("revocation not checked: " + (evidence.unavailable ?? "no \(evidence.mode.rawValue) source"),
                        evidence, &warnings)
        }
        var unknown: String?
        for document in documents {
            let outcome: RevocationOutcome
            switch document.content {
            case .failure(let failure):
                outcome = .invalid(.malformed(failure.description))
            case .success(let bytes) where document.kind == .ocsp:
                outcome = OCSPExchange.judge(bytes, certificate: leaf, issuer: issuer, at: time)
            case .success(let bytes):
                outcome = judgeCRL(bytes, leaf: leaf, issuer: issuer, at: time)
            }
            switch outcome {
            case .answer(.good):
                return nil
            case .answer(.revoked(let date, let reason)):
                return .revoked(leaf, source: document.source, on: date, reason: reason)
            case .answer(.unknown):
                unknown = "\(document.source) does not know \(leafName)"
            case .invalid(let problem):
                return .revocationInvalid(source: document.source, problem: problem.sentence,
                                          isOCSP: document.kind == .ocsp)
            case .notApplicable:
                unknown = "\(document.source) is not issued by the issuer of \(leafName)"
            }
        }
        return soft("revocation status unknown: " + (unknown ?? "no answer"), evidence, &warnings)
    }

    /// A CRL document: every CRL in it judged, the one of the leaf's issuer deciding.
    private static func judgeCRL(_ bytes: [UInt8], leaf: X509Certificate, issuer: X509Certificate, at time: Date)
        -> RevocationOutcome
    {
        let lists: [CertificateRevocationList]
        do {
            lists = try CertificateRevocationList.parse(bytes)
        } catch {
            return .invalid(.malformed(error.description))
        }
        for list in lists {
            let outcome = list.judge(leaf, issuer: issuer, at: time)
            if case .notApplicable = outcome { continue }
            return outcome
        }
        return .notApplicable
    }

    /// A doubt is a warning, unless only a positive answer will do.
    private static func soft(_ message: String, _ evidence: RevocationEvidence, _ warnings: inout [String])
        -> RejectionReason?
    {
        if evidence.requiresPositiveResponse {
            return .revocationInvalid(source: "the revocation check", problem: message + " (a positive answer is required)",
                                      isOCSP: evidence.mode != .crl)
        }
        if !warnings.contains(message) { warnings.append(message) }
        return nil
    }
}

extension RevocationProblem {
    /// Why the document cannot be relied on, in words.
    var sentence: String {
        switch self {
        case .malformed(let what): "it is unusable: \(what)"
        case .errorStatus(let status): "the responder answered with status \(status), not successful"
        case .signature(let what): "its signature does not verify: \(what)"
        case .noStatus: "it holds no status for the certificate (a response about another certificate)"
        case .notYetValid(let thisUpdate): "it was made for \(Timestamp.iso8601(thisUpdate)), after the evaluation time"
        case .stale(let nextUpdate): "it is stale: its nextUpdate was \(Timestamp.iso8601(nextUpdate))"
        }
    }
}
