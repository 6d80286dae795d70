import PolicyEngine
import Testing

/// One row of Alamofire's truth table: an evaluator (applied to whatever host is checked, as `--evaluator` does), a
/// chain, a host and the verdict Alamofire 5.12 gives.
struct AlamofireRow: Sendable, CustomTestStringConvertible {
    let spec: AlamofireSpec
    let chain: AlamofireChain
    let host: String?
    let expected: ExpectedVerdict

    var testDescription: String { "\(spec) on \(chain.rawValue) for \(host ?? "no host") → \(expected)" }
}

private let api = AlamofireHosts.api
private let other = AlamofireHosts.other

/// `DefaultTrustEvaluator`, columns validateHost off, on. With validateHost the host check runs first and is a full
/// evaluation, so the host-less one after it can add nothing: validate(anchors, ssl, host) or (anchors, ssl, none).
private func standard(_ chain: AlamofireChain, host: String? = api, _ expected: [ExpectedVerdict]) -> [AlamofireRow] {
    precondition(expected.count == 2, "two columns")
    return zip([false, true], expected).map { AlamofireRow(spec: .standard(validateHost: $0), chain: chain, host: host,
                                                           expected: $1) }
}

/// `PinnedCertificatesTrustEvaluator`, columns (acceptSelfSignedCertificates, performDefaultValidation, validateHost):
/// FFF FFT FTF FTT | TFF TFT TTF TTT.
private func pinned(_ chain: AlamofireChain, pins: [String], host: String? = api, _ expected: [ExpectedVerdict])
    -> [AlamofireRow]
{
    precondition(expected.count == 8, "eight columns")
    let flags = [false, true].flatMap { a in [false, true].flatMap { d in [false, true].map { h in (a, d, h) } } }
    return zip(flags, expected).map { flag, expected in
        AlamofireRow(spec: .pinned(pins, acceptSelfSigned: flag.0, defaultValidation: flag.1, validateHost: flag.2),
                     chain: chain, host: host, expected: expected)
    }
}

/// `PublicKeysTrustEvaluator`, columns (performDefaultValidation, validateHost): FF FT TF TT.
private func keys(_ chain: AlamofireChain, of files: [String], host: String? = api, _ expected: [ExpectedVerdict])
    -> [AlamofireRow]
{
    precondition(expected.count == 4, "four columns")
    let flags = [false, true].flatMap { d in [false, true].map { h in (d, h) } }
    return zip(flags, expected).map { flag, expected in
        AlamofireRow(spec: .keys(files, defaultValidation: flag.0, validateHost: flag.1), chain: chain, host: host,
                     expected: expected)
    }
}

private typealias E = ExpectedVerdict
private let pinNotInChain = E.pinNotInChain, keyNotPinned = E.keyNotPinned

// Written by hand from ServerTrustEvaluation.swift (5.12.0); OpenSSL error depths checked with `openssl verify`:
// an incomplete chain is error 20 at the certificate whose issuer is missing, a presented self-signed root outside
// the store error 19 at its depth, the chain of 2125 error 10 at the root (#2, added by the store).
let alamofireDefaultRows: [AlamofireRow] =
    standard(.valid, [.validated, .validated])
    + standard(.valid, host: other, [.validated, .mismatch(0)])
    + standard(.valid, host: nil, [.validated, .validated])
    + standard(.fullChain, [.validated, .validated])
    + standard(.missingIntermediate, [.untrusted(0), .untrusted(0)])
    + standard(.wrongIntermediate, [.untrusted(0), .untrusted(0)])
    + standard(.otherRoot, [.untrusted(1), .untrusted(1)])
    + standard(.selfSigned, [.untrusted(0), .untrusted(0)])
    + standard(.expired, [.expired(2), .expired(2)])
    + standard(.underExpiredRoot, [.untrusted(1), .untrusted(1)])
    // SecPolicyCreateSSL(true, nil) still checks the leaf's extended key usage.
    + standard(.clientAuth, [.notServer(0), .notServer(0)])
    + standard(.noSAN, [.validated, .mismatch(0)])
    + standard(.wildcard, [.validated, .validated])

// Without acceptSelfSignedCertificates the store is the anchor and the pins only take part in the comparison; with it
// the pins are the only anchors (SecTrustSetAnchorCertificatesOnly) and the path ends at the first one. Either flag
// validates the whole chain (validateHost is a full evaluation); with both off nothing is validated and the pins are
// compared with the chain Apple builds anyway: a store root included, a certificate that does not connect left out.
let alamofirePinnedRows: [AlamofireRow] =
    pinned(.valid, pins: ["leaf.pem"], Array(repeating: .pinned(at: 0), count: 8))
    + pinned(.valid, pins: ["intermediate-ca.pem"], Array(repeating: .pinned(at: 1), count: 8))
    // The store's root, not sent, is in the built chain; pinned and made the anchor, it ends the chain as well.
    + pinned(.valid, pins: ["root-ca.pem"], Array(repeating: .pinned(at: 2), count: 8))
    // Any overlap passes; with the leaf an anchor the path is the leaf alone.
    + pinned(.valid, pins: ["other-intermediate-ca.pem", "leaf.pem"], Array(repeating: .pinned(at: 0), count: 8))
    + pinned(.valid, pins: ["leaf.pem"], host: other, [
        .pinned(at: 0), .mismatch(0), .pinned(at: 0), .mismatch(0),
        .pinned(at: 0), .mismatch(0), .pinned(at: 0), .mismatch(0)])
    // The store is excluded once the pins are the anchors: the chain to root-ca no longer validates.
    + pinned(.valid, pins: ["other-intermediate-ca.pem"], [
        pinNotInChain, pinNotInChain, pinNotInChain, pinNotInChain,
        pinNotInChain, .untrusted(1), .untrusted(1), .untrusted(1)])
    + pinned(.selfSigned, pins: ["self-signed.pem"], [
        .pinned(at: 0), .untrusted(0), .untrusted(0), .untrusted(0),
        .pinned(at: 0), .pinned(at: 0), .pinned(at: 0), .pinned(at: 0)])
    // The presented root does not connect to the leaf: it is not in the built chain, anchor or not.
    + pinned(.missingIntermediate, pins: ["root-ca.pem"], [
        pinNotInChain, .untrusted(0), .untrusted(0), .untrusted(0),
        pinNotInChain, .untrusted(0), .untrusted(0), .untrusted(0)])
    + pinned(.missingIntermediate, pins: ["leaf.pem"], [
        .pinned(at: 0), .untrusted(0), .untrusted(0), .untrusted(0),
        .pinned(at: 0), .pinned(at: 0), .pinned(at: 0), .pinned(at: 0)])
    + pinned(.wrongIntermediate, pins: ["other-intermediate-ca.pem"], [
        pinNotInChain, .untrusted(0), .untrusted(0), .untrusted(0),
        pinNotInChain, .untrusted(0), .untrusted(0), .untrusted(0)])
    // The partial chain, as far as it got, is compared when nothing is validated.
    + pinned(.otherRoot, pins: ["other-root-intermediate-ca.pem"], [
        .pinned(at: 1), .untrusted(1), .untrusted(1), .untrusted(1),
        .pinned(at: 1), .pinned(at: 1), .pinned(at: 1), .pinned(at: 1)])
    // Both flags off: an expired chain passes on a pin. A pinned anchor's own dates are checked.
    + pinned(.expired, pins: ["leaf.pem"], [
        .pinned(at: 0), .expired(2), .expired(2), .expired(2),
        .pinned(at: 0), .expired(0), .expired(0), .expired(0)])
    // Apple ends the path at the pinned leaf: the expired root the server adds above it is never looked at.
    + pinned(.underExpiredRoot, pins: ["leaf-under-expired-root.pem"], [
        .pinned(at: 0), .untrusted(1), .untrusted(1), .untrusted(1),
        .pinned(at: 0), .pinned(at: 0), .pinned(at: 0), .pinned(at: 0)])
    // A presented, untrusted self-signed root stays in the built chain.
    + pinned(.underExpiredRoot, pins: ["expired-root-ca.pem"], [
        .pinned(at: 1), .untrusted(1), .untrusted(1), .untrusted(1),
        .pinned(at: 1), .expired(1), .expired(1), .expired(1)])
    // The SSL policy without a host (performDefaultValidation) still refuses a leaf not meant for TLS servers.
    + pinned(.clientAuth, pins: ["client-auth-leaf.pem"], [
        .pinned(at: 0), .notServer(0), .notServer(0), .notServer(0),
        .pinned(at: 0), .notServer(0), .notServer(0), .notServer(0)])
    // performDefaultValidation checks no name.
    + pinned(.noSAN, pins: ["no-san-leaf.pem"], [
        .pinned(at: 0), .mismatch(0), .pinned(at: 0), .mismatch(0),
        .pinned(at: 0), .mismatch(0), .pinned(at: 0), .mismatch(0)])
    // No certificates: noCertificatesFound before anything else.
    + pinned(.selfSigned, pins: [], Array(repeating: .noPins, count: 8))

// PublicKeys sets no anchors: the store's chain, its keys compared (RSA and EC keys, as Security extracts them).
let alamofireKeyRows: [AlamofireRow] =
    keys(.valid, of: ["leaf.pem"], Array(repeating: .pinned(at: 0), count: 4))
    + keys(.valid, of: ["root-ca.pem"], Array(repeating: .pinned(at: 2), count: 4))
    + keys(.valid, of: ["leaf-rekeyed.pem"], Array(repeating: keyNotPinned, count: 4))
    + keys(.valid, of: ["leaf.pem"], host: other, [.pinned(at: 0), .mismatch(0), .pinned(at: 0), .mismatch(0)])
    + keys(.p521, of: ["leaf-p521.pem"], Array(repeating: .pinned(at: 0), count: 4))
    + keys(.missingIntermediate, of: ["leaf.pem"], [.pinned(at: 0), .untrusted(0), .untrusted(0), .untrusted(0)])
    + keys(.missingIntermediate, of: ["root-ca.pem"], [keyNotPinned, .untrusted(0), .untrusted(0), .untrusted(0)])
    + keys(.wrongIntermediate, of: ["leaf.pem"], [.pinned(at: 0), .untrusted(0), .untrusted(0), .untrusted(0)])
    + keys(.wrongIntermediate, of: ["other-intermediate-ca.pem"],
           [keyNotPinned, .untrusted(0), .untrusted(0), .untrusted(0)])
    + keys(.expired, of: ["intermediate-ca.pem"], [.pinned(at: 1), .expired(2), .expired(2), .expired(2)])
    + keys(.selfSigned, of: ["self-signed.pem"], [.pinned(at: 0), .untrusted(0), .untrusted(0), .untrusted(0)])
    + keys(.underExpiredRoot, of: ["expired-root-ca.pem"],
           [.pinned(at: 1), .untrusted(1), .untrusted(1), .untrusted(1)])
    + keys(.clientAuth, of: ["client-auth-leaf.pem"], [.pinned(at: 0), .notServer(0), .notServer(0), .notServer(0)])
    + keys(.selfSigned, of: [], Array(repeating: .noPins, count: 4))

// DisabledTrustEvaluator: `public func evaluate(_ trust: SecTrust, forHost host: String) throws {}`.
let alamofireDisabledRows: [AlamofireRow] = [AlamofireChain.selfSigned, .expired, .missingIntermediate, .clientAuth]
    .map { AlamofireRow(spec: .disabled, chain: $0, host: api, expected: .unchecked) }
    + [AlamofireRow(spec: .disabled, chain: .valid, host: other, expected: .unchecked)]
