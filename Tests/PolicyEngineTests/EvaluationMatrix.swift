import PolicyEngine
import Testing

/// The presented chains of the truth table, each with the pins its pinning modes use.
enum Scenario: String, CaseIterable, Sendable {
    case validChain = "valid chain, leaf pinned"
    case selfSigned = "self-signed leaf, pinned"
    case expired = "expired leaf, pinned"
    case notYetValid = "not-yet-valid leaf, pinned"
    case wrongHost = "wrong-host leaf, pinned"
    case cnOnly = "CN-only leaf (no SAN), pinned"
    case missingIntermediate = "leaf without its intermediate, leaf pinned"
    case pinnedIntermediate = "valid chain, intermediate pinned"
    case pinnedRoot = "valid chain, root pinned"
    case renewedLeaf = "renewed leaf (same key), old leaf pinned"
    case rekeyedLeaf = "rekeyed leaf (new key), old leaf pinned"
    case expiredIntermediate = "expired intermediate above a pinned leaf"
    case noPins = "valid chain, nothing pinned"

    /// Fixture files, leaf first, as the server would send them.
    var presented: [String] {
        switch self {
        case .validChain, .pinnedIntermediate, .pinnedRoot, .noPins: ["leaf.pem", "intermediate-ca.pem"]
        case .selfSigned: ["self-signed.pem"]
        case .expired: ["expired.pem", "intermediate-ca.pem"]
        case .notYetValid: ["not-yet-valid.pem", "intermediate-ca.pem"]
        case .wrongHost: ["wrong-host.pem", "intermediate-ca.pem"]
        case .cnOnly: ["cn-only.pem", "intermediate-ca.pem"]
        case .missingIntermediate: ["leaf.pem"]
        case .renewedLeaf: ["leaf-renewed.pem", "intermediate-ca.pem"]
        case .rekeyedLeaf: ["leaf-rekeyed.pem", "intermediate-ca.pem"]
        case .expiredIntermediate: ["leaf-under-expired-intermediate.pem", "expired-intermediate-ca.pem"]
        }
    }

    /// Pinned certificate files; in public-key mode their keys are the pins. Mode none is given them too (ignored).
    var pins: [String] {
        switch self {
        case .validChain, .missingIntermediate, .renewedLeaf, .rekeyedLeaf: ["leaf.pem"]
        case .selfSigned, .expired, .notYetValid, .wrongHost, .cnOnly, .expiredIntermediate: [presented[0]]
        case .pinnedIntermediate: ["intermediate-ca.pem"]
        case .pinnedRoot: ["root-ca.pem"]
        case .noPins: []
        }
    }
}

/// One cell of AFAFNetworkingPolicy's truth table: a policy, a chain, and the verdict DESIGN §2 gives.
struct Cell: Sendable, CustomTestStringConvertible {
    let mode: PinningMode
    let allowInvalid: Bool
    let validatesDomain: Bool
    let scenario: Scenario
    let expected: ExpectedVerdict

    init(_ mode: PinningMode, _ invalid: Flag, _ domain: Flag, _ scenario: Scenario, _ expected: ExpectedVerdict) {
        self.mode = mode
        self.allowInvalid = invalid == .on
        self.validatesDomain = domain == .on
        self.scenario = scenario
        self.expected = expected
    }

    var testDescription: String {
        "\(mode.rawValue), invalid \(allowInvalid ? "allowed" : "refused"), domain "
            + "\(validatesDomain ? "validated" : "unchecked"): \(scenario.rawValue) → \(expected)"
    }
}

enum Flag: Sendable { case on, off }

// Columns: mode, allowInvalidCertificates, validatesDomainName, scenario, verdict.
// Derived by hand from DESIGN §2 with root-ca.pem as the only system anchor, domain pinning.test, 2026-06-01.
// Indices are into Evaluation.chain (presented certificates, then the store's root): #2 is the store-supplied root.
let truthTable: [Cell] = [
    // valid chain [leaf, intermediate], leaf pinned: only step 1 can refuse it.
    Cell(.none, .off, .on, .validChain, .trusted),
    Cell(.none, .off, .off, .validChain, .trusted),
    Cell(.none, .on, .on, .validChain, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .validChain, .trusted),
    Cell(.certificate, .off, .on, .validChain, .pinned(at: 0)),
    Cell(.certificate, .off, .off, .validChain, .pinned(at: 0)),
    Cell(.certificate, .on, .on, .validChain, .pinned(at: 0)),
    Cell(.certificate, .on, .off, .validChain, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .validChain, .pinned(at: 0)),
    Cell(.publicKey, .off, .off, .validChain, .pinned(at: 0)),
    Cell(.publicKey, .on, .on, .validChain, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .validChain, .pinned(at: 0)),

    // [self-signed]: error 18 against the store; trusted only when pinned with invalid certificates allowed.
    Cell(.none, .off, .on, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.none, .off, .off, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.none, .on, .on, .selfSigned, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .selfSigned, .trusted),
    Cell(.certificate, .off, .on, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.certificate, .off, .off, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.certificate, .on, .on, .selfSigned, .pinned(at: 0)),
    Cell(.certificate, .on, .off, .selfSigned, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.publicKey, .off, .off, .selfSigned, .rejected("untrusted-chain", at: 0)),
    Cell(.publicKey, .on, .on, .selfSigned, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .selfSigned, .pinned(at: 0)),

    // expired leaf: certificate mode checks dates even with invalid certificates allowed; public-key mode does not.
    Cell(.none, .off, .on, .expired, .rejected("expired", at: 0)),
    Cell(.none, .off, .off, .expired, .rejected("expired", at: 0)),
    Cell(.none, .on, .on, .expired, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .expired, .trusted),
    Cell(.certificate, .off, .on, .expired, .rejected("expired", at: 0)),
    Cell(.certificate, .off, .off, .expired, .rejected("expired", at: 0)),
    Cell(.certificate, .on, .on, .expired, .rejected("expired", at: 0)),
    Cell(.certificate, .on, .off, .expired, .rejected("expired", at: 0)),
    Cell(.publicKey, .off, .on, .expired, .rejected("expired", at: 0)),
    Cell(.publicKey, .off, .off, .expired, .rejected("expired", at: 0)),
    Cell(.publicKey, .on, .on, .expired, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .expired, .pinned(at: 0)),

    // not-yet-valid leaf: as expired.
    Cell(.none, .off, .on, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.none, .off, .off, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.none, .on, .on, .notYetValid, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .notYetValid, .trusted),
    Cell(.certificate, .off, .on, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.certificate, .off, .off, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.certificate, .on, .on, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.certificate, .on, .off, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.publicKey, .off, .on, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.publicKey, .off, .off, .notYetValid, .rejected("not-yet-valid", at: 0)),
    Cell(.publicKey, .on, .on, .notYetValid, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .notYetValid, .pinned(at: 0)),

    // wrong host: the name counts only when validated; certificate mode checks it even with invalid allowed.
    Cell(.none, .off, .on, .wrongHost, .rejected("hostname-mismatch", at: 0)),
    Cell(.none, .off, .off, .wrongHost, .trusted),
    Cell(.none, .on, .on, .wrongHost, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .wrongHost, .trusted),
    Cell(.certificate, .off, .on, .wrongHost, .rejected("hostname-mismatch", at: 0)),
    Cell(.certificate, .off, .off, .wrongHost, .pinned(at: 0)),
    Cell(.certificate, .on, .on, .wrongHost, .rejected("hostname-mismatch", at: 0)),
    Cell(.certificate, .on, .off, .wrongHost, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .wrongHost, .rejected("hostname-mismatch", at: 0)),
    Cell(.publicKey, .off, .off, .wrongHost, .pinned(at: 0)),
    Cell(.publicKey, .on, .on, .wrongHost, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .wrongHost, .pinned(at: 0)),

    // CN-only leaf: names come from the SAN only, so CN=pinning.test never matches — as wrong host.
    Cell(.none, .off, .on, .cnOnly, .rejected("hostname-mismatch", at: 0)),
    Cell(.none, .off, .off, .cnOnly, .trusted),
    Cell(.none, .on, .on, .cnOnly, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .cnOnly, .trusted),
    Cell(.certificate, .off, .on, .cnOnly, .rejected("hostname-mismatch", at: 0)),
    Cell(.certificate, .off, .off, .cnOnly, .pinned(at: 0)),
    Cell(.certificate, .on, .on, .cnOnly, .rejected("hostname-mismatch", at: 0)),
    Cell(.certificate, .on, .off, .cnOnly, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .cnOnly, .rejected("hostname-mismatch", at: 0)),
    Cell(.publicKey, .off, .off, .cnOnly, .pinned(at: 0)),
    Cell(.publicKey, .on, .on, .cnOnly, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .cnOnly, .pinned(at: 0)),

    // [leaf] alone: error 20 against the store; a pinned leaf is its own anchor in certificate mode.
    Cell(.none, .off, .on, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.none, .off, .off, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.none, .on, .on, .missingIntermediate, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .missingIntermediate, .trusted),
    Cell(.certificate, .off, .on, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.certificate, .off, .off, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.certificate, .on, .on, .missingIntermediate, .pinned(at: 0)),
    Cell(.certificate, .on, .off, .missingIntermediate, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.publicKey, .off, .off, .missingIntermediate, .rejected("untrusted-chain", at: 0)),
    Cell(.publicKey, .on, .on, .missingIntermediate, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .missingIntermediate, .pinned(at: 0)),

    // intermediate pinned: it terminates the chain in certificate mode; its key is in the built chain.
    Cell(.none, .off, .on, .pinnedIntermediate, .trusted),
    Cell(.none, .off, .off, .pinnedIntermediate, .trusted),
    Cell(.none, .on, .on, .pinnedIntermediate, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .pinnedIntermediate, .trusted),
    Cell(.certificate, .off, .on, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.certificate, .off, .off, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.certificate, .on, .on, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.certificate, .on, .off, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.publicKey, .off, .on, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.publicKey, .off, .off, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.publicKey, .on, .on, .pinnedIntermediate, .pinned(at: 1)),
    Cell(.publicKey, .on, .off, .pinnedIntermediate, .pinned(at: 1)),

    // root pinned: the server did not send it; it is #2, supplied by the store (or the pinned anchors).
    Cell(.none, .off, .on, .pinnedRoot, .trusted),
    Cell(.none, .off, .off, .pinnedRoot, .trusted),
    Cell(.none, .on, .on, .pinnedRoot, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .pinnedRoot, .trusted),
    Cell(.certificate, .off, .on, .pinnedRoot, .pinned(at: 2)),
    Cell(.certificate, .off, .off, .pinnedRoot, .pinned(at: 2)),
    Cell(.certificate, .on, .on, .pinnedRoot, .pinned(at: 2)),
    Cell(.certificate, .on, .off, .pinnedRoot, .pinned(at: 2)),
    Cell(.publicKey, .off, .on, .pinnedRoot, .pinned(at: 2)),
    Cell(.publicKey, .off, .off, .pinnedRoot, .pinned(at: 2)),
    Cell(.publicKey, .on, .on, .pinnedRoot, .pinned(at: 2)),
    Cell(.publicKey, .on, .off, .pinnedRoot, .pinned(at: 2)),

    // renewed leaf, old leaf.pem pinned: with leaf.pem the only anchor, OpenSSL finds no issuer above the
    // intermediate (error 20 at depth 1, not pin-not-in-chain); the unchanged key still matches.
    Cell(.none, .off, .on, .renewedLeaf, .trusted),
    Cell(.none, .off, .off, .renewedLeaf, .trusted),
    Cell(.none, .on, .on, .renewedLeaf, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .renewedLeaf, .trusted),
    Cell(.certificate, .off, .on, .renewedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .off, .off, .renewedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .on, .on, .renewedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .on, .off, .renewedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.publicKey, .off, .on, .renewedLeaf, .pinned(at: 0)),
    Cell(.publicKey, .off, .off, .renewedLeaf, .pinned(at: 0)),
    Cell(.publicKey, .on, .on, .renewedLeaf, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .renewedLeaf, .pinned(at: 0)),

    // rekeyed leaf, old leaf.pem pinned: both pinning modes fail, each in its own way.
    Cell(.none, .off, .on, .rekeyedLeaf, .trusted),
    Cell(.none, .off, .off, .rekeyedLeaf, .trusted),
    Cell(.none, .on, .on, .rekeyedLeaf, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .rekeyedLeaf, .trusted),
    Cell(.certificate, .off, .on, .rekeyedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .off, .off, .rekeyedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .on, .on, .rekeyedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.certificate, .on, .off, .rekeyedLeaf, .rejected("untrusted-chain", at: 1)),
    Cell(.publicKey, .off, .on, .rekeyedLeaf, .rejected("public-key-not-pinned")),
    Cell(.publicKey, .off, .off, .rekeyedLeaf, .rejected("public-key-not-pinned")),
    Cell(.publicKey, .on, .on, .rekeyedLeaf, .rejected("public-key-not-pinned")),
    Cell(.publicKey, .on, .off, .rekeyedLeaf, .rejected("public-key-not-pinned")),

    // [leaf-under-expired-intermediate, expired-intermediate-ca], leaf pinned: the store's chain fails at #1;
    // certificate mode stops at the pinned leaf and never looks at the expired intermediate (step 4).
    Cell(.none, .off, .on, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.none, .off, .off, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.none, .on, .on, .expiredIntermediate, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .expiredIntermediate, .trusted),
    Cell(.certificate, .off, .on, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.certificate, .off, .off, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.certificate, .on, .on, .expiredIntermediate, .pinned(at: 0)),
    Cell(.certificate, .on, .off, .expiredIntermediate, .pinned(at: 0)),
    Cell(.publicKey, .off, .on, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.publicKey, .off, .off, .expiredIntermediate, .rejected("expired", at: 1)),
    Cell(.publicKey, .on, .on, .expiredIntermediate, .pinned(at: 0)),
    Cell(.publicKey, .on, .off, .expiredIntermediate, .pinned(at: 0)),

    // nothing pinned: step 1 when the domain is validated for invalid certificates, otherwise no-pins.
    Cell(.none, .off, .on, .noPins, .trusted),
    Cell(.none, .off, .off, .noPins, .trusted),
    Cell(.none, .on, .on, .noPins, .misconfigured("contradiction")),
    Cell(.none, .on, .off, .noPins, .trusted),
    Cell(.certificate, .off, .on, .noPins, .rejected("no-pins")),
    Cell(.certificate, .off, .off, .noPins, .rejected("no-pins")),
    Cell(.certificate, .on, .on, .noPins, .misconfigured("contradiction")),
    Cell(.certificate, .on, .off, .noPins, .rejected("no-pins")),
    Cell(.publicKey, .off, .on, .noPins, .rejected("no-pins")),
    Cell(.publicKey, .off, .off, .noPins, .rejected("no-pins")),
    Cell(.publicKey, .on, .on, .noPins, .misconfigured("contradiction")),
    Cell(.publicKey, .on, .off, .noPins, .rejected("no-pins")),
]
