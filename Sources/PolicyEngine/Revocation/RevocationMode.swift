import OpenSSLWrapper

/// How a chain's leaf is checked for revocation (`--revocation`, DESIGN §11).
public enum RevocationMode: String, Sendable, CaseIterable {
    /// Not checked.
    case none
    /// The OCSP response the server stapled in the handshake is asked for and judged; a missing one is a warning.
    case stapled
    /// The leaf's OCSP responder (authorityInfoAccess) is asked over HTTP.
    case ocsp
    /// The leaf's CRL distribution point is fetched over HTTP (or `--crl-file` given).
    case crl
}

/// What the command layer obtained for a revocation check, for the engine to judge: the staple, the documents it
/// fetched, and what could not be asked at all. The engine never touches the network.
public struct RevocationEvidence: Sendable {
    public let mode: RevocationMode
    /// Whether only a positive answer will do (Alamofire's `.requirePositiveResponse`): then an "unknown" answer,
    /// a missing staple or no source at all rejects instead of warning.
    public var requiresPositiveResponse = false
    /// The stapled OCSP response (DER), when the server sent one.
    public var staple: [UInt8]?
    /// OCSP responses or CRLs, in the order asked, or why a server answered with none.
    public var documents: [RevocationDocument] = []
    /// Why no document could be asked for (no URL in the leaf, no issuer to build the request).
    public var unavailable: String?

    public init(mode: RevocationMode) { self.mode = mode }
}

/// A library's own demand for a revocation check (Alamofire's `RevocationTrustEvaluator`), made while it judged the
/// chain: the command layer gathers the evidence it names, as it does for `--revocation`.
public struct RevocationRequest: Sendable, Equatable {
    public let mode: RevocationMode
    public let requiresPositiveResponse: Bool

    public init(mode: RevocationMode, requiresPositiveResponse: Bool) {
        self.mode = mode
        self.requiresPositiveResponse = requiresPositiveResponse
    }
}
