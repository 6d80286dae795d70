import PolicyEngine
import Testing

private let api = AlamofireHosts.api
private let other = AlamofireHosts.other

private func row(_ specs: [AlamofireSpec], _ chain: AlamofireChain, host: String = api, _ expected: ExpectedVerdict)
    -> AlamofireRow
{
    AlamofireRow(spec: .composite(specs), chain: chain, host: host, expected: expected)
}

private func step(_ index: Int, of count: Int, _ kind: String) -> String { "evaluator \(index) of \(count) (\(kind))" }

// CompositeTrustEvaluator: `for evaluator in self { try evaluator.evaluate(trust, forHost: host) }`. In order, the
// first throw is the reason, an empty list passes, and every evaluator works on the same SecTrust: anchors a pinned
// evaluator with acceptSelfSignedCertificates set stay set for those after it (acceptSelfSignedCertificates false
// does not restore the store).
let alamofireCompositeRows: [AlamofireRow] = [
    row([], .selfSigned, .unchecked),
    row([.disabled], .selfSigned, .unchecked),
    row([.standard, .disabled], .valid, .validated),
    // Order and shared anchors: the self-signed pin made an anchor first lets the later evaluators validate.
    row([.selfSignedAccepted(["self-signed.pem"]), .keys(["self-signed.pem"])], .selfSigned, .pinned(at: 0)),
    row([.keys(["self-signed.pem"]), .selfSignedAccepted(["self-signed.pem"])], .selfSigned,
        E.untrusted(0).within(step(1, of: 2, "public-keys"))),
    row([.selfSignedAccepted(["self-signed.pem"]), .standard], .selfSigned, .pinned(at: 0)),
    row([.standard, .selfSignedAccepted(["self-signed.pem"])], .selfSigned,
        E.untrusted(0).within(step(1, of: 2, "default"))),
    row([.selfSignedAccepted(["self-signed.pem"]), .pinned(["self-signed.pem"])], .selfSigned, .pinned(at: 0)),
    // The pinned leaf as the only anchor ends the path at the leaf: the intermediate's key is no longer in it.
    row([.selfSignedAccepted(["leaf.pem"]), .keys(["intermediate-ca.pem"])], .valid,
        E.keyNotPinned.within(step(2, of: 2, "public-keys"))),
    // The pinned intermediate as the only anchor leaves the store's root out of the chain.
    row([.selfSignedAccepted(["intermediate-ca.pem"]), .keys(["root-ca.pem"])], .valid,
        E.keyNotPinned.within(step(2, of: 2, "public-keys"))),
    row([.pinned(["intermediate-ca.pem"]), .keys(["root-ca.pem"])], .valid, .pinned(at: 1)),
    // New anchors make the trust evaluate again: with nothing validated after them, the chain the accessors return
    // is built to the new anchors, not the one the store gave the evaluator before.
    row([.standard,
         .pinned(["intermediate-ca.pem"], acceptSelfSigned: true, defaultValidation: false, validateHost: false),
         .keys(["root-ca.pem"], defaultValidation: false, validateHost: false)], .valid,
        E.keyNotPinned.within(step(3, of: 3, "public-keys"))),
    // The first failure is the reason, though the second would fail too.
    row([.keys(["other-intermediate-ca.pem"]), .pinned(["other-intermediate-ca.pem"])], .valid,
        E.keyNotPinned.within(step(1, of: 2, "public-keys"))),
    row([.standard(validateHost: false), .pinned(["leaf.pem"])], .valid, host: other,
        E.mismatch(0).within(step(2, of: 2, "pinned-certificates"))),
    row([.keys([]), .standard], .valid, E.noPins.within(step(1, of: 2, "public-keys"))),
    row([.standard, .composite([.keys(["other-intermediate-ca.pem"])])], .valid,
        E.keyNotPinned.within(step(2, of: 2, "composite"), step(1, of: 1, "public-keys"))),
    row([.standard, .composite([.keys(["leaf.pem"])]), .pinned(["root-ca.pem"])], .valid, .pinned(at: 0)),
]

private typealias E = ExpectedVerdict

/// A `ServerTrustManager` row: its evaluators by host, the host checked, the verdict.
struct AlamofireManagerRow: Sendable, CustomTestStringConvertible {
    let allHostsMustBeEvaluated: Bool
    let evaluators: [(host: String, spec: AlamofireSpec)]
    let chain: AlamofireChain
    let host: String?
    let expected: ExpectedVerdict

    var policy: AlamofirePolicy {
        AlamofirePolicy(allHostsMustBeEvaluated: allHostsMustBeEvaluated,
                        evaluators: evaluators.map { ($0.host, $0.spec.evaluator) })
    }

    var testDescription: String {
        "allHostsMustBeEvaluated \(allHostsMustBeEvaluated), {" + evaluators.map { "\($0.host): \($0.spec)" }
            .joined(separator: ", ") + "} on \(chain.rawValue) for \(host ?? "no host") → \(expected)"
    }
}

private func manager(_ must: Bool, _ evaluators: [(host: String, spec: AlamofireSpec)], _ chain: AlamofireChain,
                     host: String? = api, _ expected: ExpectedVerdict) -> AlamofireManagerRow {
    AlamofireManagerRow(allHostsMustBeEvaluated: must, evaluators: evaluators, chain: chain, host: host,
                        expected: expected)
}

// `evaluators[host]`: a Swift dictionary subscript, exact and case-sensitive. No evaluator: `noRequiredEvaluator` when
// allHostsMustBeEvaluated, else `.performDefaultHandling`, URLSession's own evaluation with the host.
let alamofireManagerRows: [AlamofireManagerRow] = [
    manager(true, [(api, .pinned(["leaf.pem"]))], .valid, .pinned(at: 0)),
    manager(true, [(api, .keys(["other-intermediate-ca.pem"]))], .valid, .keyNotPinned),
    manager(true, [("API.example.com", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [("example.com", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [("*.example.com", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [("api.example.com.", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [("api.example.com:443", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [("www.example.com", .disabled)], .selfSigned, .noEvaluator),
    manager(true, [(api, .disabled)], .selfSigned, host: nil, .noEvaluator),
    manager(true, [], .valid, .noEvaluator),
    manager(false, [], .valid, .notPinned),
    // The default handling checks the name, unlike Alamofire's host-less "default validation".
    manager(false, [], .valid, host: other, .mismatch(0)),
    manager(false, [], .noSAN, .mismatch(0)),
    manager(false, [], .selfSigned, .untrusted(0)),
    manager(false, [], .expired, .expired(2)),
    manager(false, [], .clientAuth, .notServer(0)),
    manager(false, [("API.example.com", .disabled)], .selfSigned, .untrusted(0)),
    manager(false, [("www.example.com", .keys(["other-intermediate-ca.pem"]))], .valid, .notPinned),
    manager(false, [(api, .keys(["other-intermediate-ca.pem"]))], .valid, .keyNotPinned),
    manager(false, [(api, .disabled)], .selfSigned, .unchecked),
]
