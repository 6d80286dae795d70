import Foundation
import OpenSSLWrapper

/// DESIGN §2's warnings: printed beside the verdict, never changing it.
struct Warnings {
    let evaluator: TrustEvaluator
    let domain: String?
    let chain: [X509Certificate]
    let verdict: Evaluation.Verdict

    private var policy: SecurityPolicy { evaluator.policy }

    var all: [String] {
        var warnings: [String] = []
        if policy.allowInvalidCertificates {
            switch policy.mode {
            case .none:
                warnings.append("--allow-invalid-certificates with --mode none accepts any certificate")
            case .publicKey:
                warnings.append("--allow-invalid-certificates with --mode publickey: domain name not verified "
                    + "(nor the chain or its dates, as in AFNetworking); only the pinned keys are checked")
            case .certificate:
                break
            }
        }
        if policy.mode == .none, policy.pinCount > 0 {
            warnings.append("\(policy.pinCount) pin(s) ignored: --mode none does not pin")
        }
        if policy.validatesDomainName, domain == nil {
            warnings.append("the policy validates domain names but no domain was given (use --host): no name was checked")
        }
        if policy.mode != .none, policy.pinCount == 0 {
            warnings.append("--mode \(policy.mode.rawValue) with no pins rejects every chain")
        }
        if policy.mode != .none {
            warnings += policy.pinnedCertificates.compactMap { expiry(of: $0.certificate, what: "pinned certificate (\($0.source))") }
        }
        warnings += chain.enumerated().compactMap { expiry(of: $0.element, what: "certificate #\($0.offset)") }
        if let backup = missingBackupPin() { warnings.append(backup) }
        return warnings
    }

    private func expiry(of certificate: X509Certificate, what: String) -> String? {
        let days = certificate.daysLeft(at: evaluator.time)
        if certificate.notAfter < evaluator.time {
            return "\(what) \(certificate.subject) expired on \(Timestamp.iso8601(certificate.notAfter))"
        }
        guard days < evaluator.warnDays else { return nil }
        return "\(what) \(certificate.subject) expires in \(days) day(s), on \(Timestamp.iso8601(certificate.notAfter))"
    }

    /// Every pin in the chain being served means there is no pin for the next key: a rotation would fail.
    private func missingBackupPin() -> String? {
        guard policy.mode != .none, policy.pinCount > 0 else { return nil }
        let allInChain: Bool
        switch policy.mode {
        case .certificate:
            allInChain = policy.pinnedCertificates.allSatisfy { chain.contains($0.certificate) }
        case .publicKey:
            let keys = Set(chain.map(\.spkiSHA256))
            allInChain = policy.pinnedPublicKeys.allSatisfy { keys.contains($0.sha256) }
        case .none:
            allInChain = false
        }
        guard allInChain else { return nil }
        return "no backup pin: every pin belongs to the current chain, so a key rotation will fail"
    }
}

extension X509Certificate {
    /// Whole days from `time` to notAfter, rounded down: negative once expired.
    public func daysLeft(at time: Date) -> Int {
        Int((notAfter.timeIntervalSince(time) / 86_400).rounded(.down))
    }
}
