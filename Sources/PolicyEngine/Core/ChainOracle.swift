import FoundationEssentials
import OpenSSLWrapper

/// What a validation checks about the leaf's identity besides the chain.
public struct IdentityChecks: Sendable, Hashable {
    /// The leaf's key usage and extended key usage must allow TLS server authentication (Apple's SSL policy).
    public var serverUsage: Bool
    /// The name the leaf's SANs must carry; nil checks no name.
    public var hostName: String?

    public init(serverUsage: Bool, hostName: String?) {
        self.serverUsage = serverUsage
        self.hostName = hostName
    }

    /// Basic X.509: the chain only.
    public static let none = IdentityChecks(serverUsage: false, hostName: nil)

    /// The SSL server policy: the leaf's usage, and the name when one is given.
    public static func server(host: String?) -> IdentityChecks { IdentityChecks(serverUsage: true, hostName: host) }
}

/// One validation's outcome: the chain built against some anchors, its first failure, and where its anchor came from.
public struct ChainValidation: Sendable {
    public let anchors: AnchorSet
    /// The anchors in words, for messages: "the system trust store", "the pinned certificates".
    public let anchorsDescription: String
    /// Leaf first, as far as OpenSSL got; complete to an anchor when `failure` is nil.
    public let chain: [X509Certificate]
    public let failure: VerificationFailure?
    /// The anchor that ends the chain, when it ends at one.
    public let anchor: X509Certificate?
    /// The indices in `anchors.sources` of every source holding `anchor` (by subject and key).
    public let anchorSources: [Int]
    /// What the run met that a person should know (unreadable store entries).
    public let warnings: [String]
    /// The other paths tried and refused, in order (DESIGN §12); OpenSSL's own first when `chain` is another.
    public var refusedPaths: [RefusedPath] = []

    public var isValid: Bool { failure == nil }
}

/// The work every library's evaluation shares for one presented chain: validations against anchor sets, each run
/// once however many policies ask for it, and the matching of pins against the chains they build.
// @unchecked Sendable: an oracle belongs to the one thread judging its chain (every app covering a target is judged
// in turn on the same worker); its caches are never touched from two threads.
public final class ChainOracle: @unchecked Sendable {
    /// The certificates the server presented (or the files gave), leaf first.
    public let presented: [X509Certificate]
    public let context: EvaluationContext

    private struct Request: Hashable {
        let anchors: AnchorSet
        let checks: IdentityChecks
        let untrusted: [X509Certificate]?
        let checksAnchorValidity: Bool
    }

    private var validations: [Request: ChainValidation] = [:]
    private var stores: [AnchorSet: TrustStore] = [:]
    /// Every validation asked for, in order, memoized or not: what an evaluation used.
    private(set) var requests: [ChainValidation] = []

    public init(presented: [X509Certificate], context: EvaluationContext) {
        self.presented = presented
        self.context = context
    }

    /// The chain from the presented leaf to `anchors`, with the other presented certificates (or `untrusted`, when
    /// a library offers fewer) as candidate intermediates. Run once per distinct request.
    public func validate(
        against anchors: AnchorSet, checks: IdentityChecks, untrusted: [X509Certificate]? = nil,
        checksAnchorValidity: Bool = true
    ) -> ChainValidation {
        let request = Request(anchors: anchors, checks: checks, untrusted: untrusted,
                              checksAnchorValidity: checksAnchorValidity)
        if let done = validations[request] {
            requests.append(done)
            return done
        }
        let store = self.store(for: anchors)
        let result = ChainVerifier.verify(
            leaf: presented[0], untrusted: untrusted ?? Array(presented.dropFirst()), store: store,
            options: VerificationOptions(time: context.time, checksServerUsage: checks.serverUsage,
                                         hostName: checks.hostName, checksAnchorValidity: checksAnchorValidity,
                                         pathRule: context.platformRules),
            memo: context.verificationMemo)
        let validation = ChainValidation(
            anchors: anchors, anchorsDescription: store.origin, chain: result.chain, failure: result.failure,
            anchor: result.anchor, anchorSources: result.anchor.map { sources(holding: $0, in: anchors) } ?? [],
            warnings: result.warnings, refusedPaths: result.refusedPaths)
        validations[request] = validation
        requests.append(validation)
        return validation
    }

    /// The X509_STORE for an anchor set, built once.
    private func store(for anchors: AnchorSet) -> TrustStore {
        if let built = stores[anchors] { return built }
        let parts = anchors.sources.map { source -> TrustStore in
            switch source.kind {
            case .platform: context.platformAnchors
            case .userAdded: context.platformRules?.userRoots ?? TrustStore.anchors([], origin: source.name)
            case .certificates(let certificates): TrustStore.anchors(certificates, origin: source.name)
            }
        }
        let store: TrustStore
        if parts.count == 1 {
            store = parts[0]
        } else {
            store = TrustStore.union(parts, origin: parts.map(\.origin).joined(separator: " and "))
        }
        stores[anchors] = store
        return store
    }

    private func sources(holding anchor: X509Certificate, in anchors: AnchorSet) -> [Int] {
        anchors.sources.indices.filter { index in
            switch anchors.sources[index].kind {
            case .platform:
                return context.platformAnchors.contains(anchor)
            case .userAdded:
                return context.platformRules?.userRoots?.contains(anchor) == true
            case .certificates(let certificates):
                return certificates.contains { $0.subject == anchor.subject && $0.spkiDER == anchor.spkiDER }
            }
        }
    }
}

extension ChainOracle {
    /// The first certificate of `chain`, scanned leaf first (or root first), whose key one of `pins` pins.
    public static func keyMatch(_ pins: [PublicKeyPin], in chain: [X509Certificate], rootFirst: Bool = false)
        -> PinMatch?
    {
        for certificate in rootFirst ? chain.reversed() : chain {
            if let pin = pins.first(where: { $0.matches(certificate) }) {
                return PinMatch(source: pin.source, pin: pin.text, certificate: certificate)
            }
        }
        return nil
    }

    /// The first certificate of `chain`, scanned leaf first (or root first), byte-identical to a pinned one.
    public static func certificateMatch(
        _ pins: [PinnedCertificate], in chain: [X509Certificate], rootFirst: Bool = false
    ) -> PinMatch? {
        for certificate in rootFirst ? chain.reversed() : chain {
            if let pin = pins.first(where: { $0.certificate == certificate }) {
                return PinMatch(source: pin.source, pin: certificate.subject, certificate: certificate)
            }
        }
        return nil
    }
}
