internal import COpenSSL
import FoundationEssentials

/// What Apple's SecTrust and Android's TrustManagerImpl do and OpenSSL 3.0 does not: when the path OpenSSL built
/// fails, try the other paths the candidate issuers allow, most preferred first, and take the first that verifies
/// (DESIGN §12). OpenSSL builds one path and gives up; it picks among issuers by name, key identifier and time only,
/// so a dead end, a weak or constrained cross-sign, or an issuer with a borrowed key identifier ends the evaluation.
enum PathBacktracking {
    /// At most this many other paths are verified: a server can send many cross-signs, each a fork.
    static let maximumPaths = 64
    /// At most this many certificates in a path, leaf and anchor included (Apple and conscrypt stop far sooner than
    /// OpenSSL's 100; real chains have three to five).
    static let maximumLength = 10
    /// At most this many issuer lookups in one search, and at most this long: the count bounds the work on an
    /// adversarial chain, the deadline a slow store (a hashed directory on a network file system).
    static let maximumLookups = 1024
    static let deadline: Duration = .seconds(2)

    /// Failures no other path can mend: they are about the leaf alone, or the evaluation's settings.
    static func isWorthTrying(after failure: VerificationFailure) -> Bool {
        if failure.isSettingFailure { return false }
        let aboutTheName = [X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH, X509_V_ERR_EMAIL_MISMATCH]
        if aboutTheName.contains(failure.code) { return false }
        let aboutTheLeaf = [X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID, X509_V_ERR_INVALID_PURPOSE,
                            KeyPolicy.leafKeyCode]
        return !(failure.depth == 0 && aboutTheLeaf.contains(failure.code))
    }

    /// Every path from `leaf` to an anchor through `lookup`'s candidates, depth first in preference order, handed to
    /// `body` until it returns true or a bound is reached. A path never holds one subject and key twice (a loop).
    /// Returns whether the deadline ended the search: only then could the same search end elsewhere another time.
    @discardableResult
    static func forEachPath(
        from leaf: X509Certificate, lookup: IssuerLookup, _ body: ([X509Certificate]) -> Bool
    ) -> Bool {
        let clock = ContinuousClock()
        let end = clock.now + deadline
        var lookups = 0
        var paths = 0
        var timedOut = false
        // Returns true to stop the whole search.
        func extend(_ path: [X509Certificate]) -> Bool {
            guard clock.now < end else {
                timedOut = true
                return true
            }
            guard lookups < maximumLookups, let top = path.last else { return true }
            lookups += 1
            for candidate in lookup.issuers(of: top) {
                let issuer = candidate.certificate
                if path.contains(where: { $0.subject == issuer.subject && $0.spkiDER == issuer.spkiDER }) { continue }
                if candidate.isAnchor {
                    paths += 1
                    if body(path + [issuer]) || paths >= maximumPaths { return true }
                } else if path.count + 1 < maximumLength, extend(path + [issuer]) {
                    return true
                }
            }
            return false
        }
        _ = extend([leaf])
        return timedOut
    }
}

extension ChainVerifier {
    /// A path found only by backtracking must allow serverAuth on every CA below its anchor (OpenSSL's purpose check
    /// with `ca` set: the extended key usage, where present, names serverAuth or anyExtendedKeyUsage). Evaluation
    /// checks the leaf alone (DESIGN §2), but a path OpenSSL did not build is one a stricter platform may refuse for
    /// exactly this, so an alternative path through an e-mail-only CA is refused rather than trusted: backtracking
    /// must never make pinctl say "trusted" where it said "rejected" on a chain a device refuses (x509-limbo's
    /// bettertls cases 44, 71 and 77).
    static func caUsageFailure(_ chain: [X509Certificate]) -> VerificationFailure? {
        guard chain.count > 2 else { return nil }
        for depth in 1..<(chain.count - 1)
        where X509_check_purpose(chain[depth].pointer, X509_PURPOSE_SSL_SERVER, 1) != 1 {
            return VerificationFailure(code: X509_V_ERR_INVALID_PURPOSE,
                                       message: "this CA's extended key usage does not allow serverAuth, which a path "
                                           + "found by trying other issuers must allow on every CA",
                                       depth: depth, certificate: chain[depth])
        }
        return nil
    }

    /// After OpenSSL's own path failed (`first`): the first other path that verifies, with the paths refused before
    /// it; or `first` again, with the other paths tried, when none does.
    static func backtrack(
        from first: ChainVerification, leaf: X509Certificate, untrusted: [X509Certificate], store: TrustStore,
        options: VerificationOptions
    ) -> ChainVerification {
        guard let failure = first.failure, PathBacktracking.isWorthTrying(after: failure),
              let lookup = IssuerLookup(store: store, untrusted: untrusted, time: options.time) else { return first }
        var tried: Set<[[UInt8]]> = [first.chain.map(\.sha256Fingerprint)]
        var refused: [RefusedPath] = []
        var warnings = first.warnings
        var verified: ChainVerification?
        let timedOut = PathBacktracking.forEachPath(from: leaf, lookup: lookup) { path in
            guard tried.insert(path.map(\.sha256Fingerprint)).inserted, let anchor = path.last else { return false }
            let result = run(leaf: leaf, untrusted: Array(path.dropFirst().dropLast()), store: store,
                             onlyAnchor: anchor, options: options)
            warnings += result.warnings.filter { !warnings.contains($0) }
            let usage = options.checksServerUsage ? caUsageFailure(result.chain) : nil
            guard let failure = result.failure ?? usage else {
                verified = result
                return true
            }
            refused.append(RefusedPath(chain: result.chain, failure: failure))
            return false
        }
        var result = verified.map {
            ChainVerification(chain: $0.chain, failure: nil, warnings: warnings, anchor: $0.anchor,
                              refusedPaths: [RefusedPath(chain: first.chain, failure: failure)] + refused)
        } ?? ChainVerification(chain: first.chain, failure: first.failure, warnings: warnings, anchor: first.anchor,
                               refusedPaths: refused)
        result.searchCutShort = timedOut
        return result
    }
}
