import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// The fixture anchors standing in for the system store.
func mainRootStore() throws -> TrustStore {
    try TrustStore.caFiles([Certs.path("root-ca.pem")], directories: [])
}

/// A policy pinning the given fixture files as certificates.
func policy(
    _ mode: PinningMode, pinning files: [String] = [], hashes: [PublicKeyPin] = [],
    allowInvalid: Bool = false, validatesDomainName: Bool = true
) -> AFNetworkingPolicy {
    AFNetworkingPolicy(
        mode: mode,
        pinnedCertificates: files.map { PinnedCertificate(certificate: Certs.one($0), source: PinSource($0)) },
        pinnedKeyHashes: hashes,
        allowInvalidCertificates: allowInvalid,
        validatesDomainName: validatesDomainName)
}

/// A label standing for where a test's pin is written.
extension PinSource {
    init(_ label: String) { self.init(.file(path: label, line: nil, entry: nil)) }
}

extension Evaluation {
    /// The index in `chain` of the certificate a matched pin matched.
    var matchedPinIndex: Int? { matchedPin.flatMap { index(of: $0.certificate) } }
}

/// An AFNetworking policy with its anchors, time and warning window, as the tests evaluate it.
struct TrustEvaluator {
    let policy: AFNetworkingPolicy
    let anchors: TrustStore
    let time: Date
    var warnDays = 30

    func evaluate(presented: [X509Certificate], domain: String?) -> Evaluation {
        let context = EvaluationContext(platformAnchors: anchors, time: time, warnDays: warnDays)
        return PolicyEvaluator(context: context).evaluate(policy, presented: presented, domain: domain)
    }
}

/// Evaluates the presented fixture files against the main root at `TestTime.now`.
func evaluate(
    _ presented: [String], for domain: String? = "pinning.test", with policy: AFNetworkingPolicy,
    at time: Date = TestTime.now, warnDays: Int = 30
) throws -> Evaluation {
    let evaluator = TrustEvaluator(policy: policy, anchors: try mainRootStore(), time: time, warnDays: warnDays)
    return evaluator.evaluate(presented: presented.map(Certs.one), domain: domain)
}
