import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// What a test expects of an evaluation, written by hand from DESIGN §2.
enum Expected: Equatable, CustomStringConvertible {
    /// Trusted without pinning (mode none).
    case trusted
    /// Trusted by a pin matching the certificate at this index of `Evaluation.chain`.
    case pinned(at: Int)
    /// Rejected with this `reason.code`; `at` is the index of the certificate the rejection names, if any.
    case rejected(String, at: Int? = nil)

    var description: String {
        switch self {
        case .trusted: "trusted"
        case .pinned(let index): "trusted by the pin on #\(index)"
        case .rejected(let code, let index): "rejected \(code)" + (index.map { " naming #\($0)" } ?? "")
        }
    }
}

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

/// Checks verdict, reason code, matched pin index, and that a chain rejection names its certificate.
func expectVerdict(
    _ evaluation: Evaluation, is expected: Expected, sourceLocation: SourceLocation = #_sourceLocation
) {
    switch expected {
    case .trusted:
        #expect(evaluation.isTrusted, "expected trusted, got \(evaluation.rejectionMessage ?? "?")",
            sourceLocation: sourceLocation)
        #expect(evaluation.matchedPin == nil, "mode none matches no pin", sourceLocation: sourceLocation)
    case .pinned(let index):
        #expect(evaluation.isTrusted, "expected trusted, got \(evaluation.rejectionMessage ?? "?")",
            sourceLocation: sourceLocation)
        #expect(evaluation.matchedPinIndex == index, sourceLocation: sourceLocation)
    case .rejected(let code, let index):
        #expect(evaluation.rejection?.reason.code == code, "message: \(evaluation.rejectionMessage ?? "trusted")",
            sourceLocation: sourceLocation)
        #expect(evaluation.rejectedCertificateIndex == index, sourceLocation: sourceLocation)
        if let index {
            let message = evaluation.rejectionMessage ?? ""
            let subject = evaluation.chain[index].subject
            #expect(message.contains("certificate #\(index) (\(subject))"), "message: \(message)",
                sourceLocation: sourceLocation)
        }
    }
}

/// Checks that some warning contains `fragment` (or, with `present: false`, that none does).
func expectWarning(
    _ evaluation: Evaluation, containing fragment: String, present: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let found = evaluation.warnings.contains { $0.contains(fragment) }
    #expect(found == present, "warnings: \(evaluation.warnings)", sourceLocation: sourceLocation)
}
