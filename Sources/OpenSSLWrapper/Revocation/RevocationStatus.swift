internal import COpenSSL
import FoundationEssentials
import Transport

/// What one revocation source says about one certificate at the evaluation time.
public enum RevocationAnswer: Sendable, Equatable {
    case good
    /// With the revocation time and OpenSSL's name for the reason ("keyCompromise"), when the source gives them.
    case revoked(on: Date?, reason: String?)
    /// The OCSP responder does not know the certificate.
    case unknown
}

/// One source judged: an answer, a document that cannot be relied on, or one that does not speak about the
/// certificate (a CRL of another CA).
public enum RevocationOutcome: Sendable, Equatable {
    case answer(RevocationAnswer)
    case invalid(RevocationProblem)
    /// A CRL whose issuer is not the certificate's.
    case notApplicable
}

/// Why a revocation document cannot be relied on.
public enum RevocationProblem: Sendable, Equatable {
    /// Not the DER (or PEM) of the expected structure: OpenSSL's words.
    case malformed(String)
    /// An OCSP response whose status is not "successful": OpenSSL's name for it ("tryLater", "unauthorized").
    case errorStatus(String)
    /// Its signature, or its signer, does not verify: OpenSSL's words.
    case signature(String)
    /// An OCSP response that holds no status for the certificate.
    case noStatus
    /// Made for a time after the evaluation time.
    case notYetValid(thisUpdate: Date)
    /// Its nextUpdate is before the evaluation time.
    case stale(nextUpdate: Date)
}

/// A revocation document as obtained: its bytes, or why none could be had (no URL, a network failure).
public struct RevocationDocument: Sendable {
    public enum Kind: Sendable { case ocsp, crl }

    public let kind: Kind
    /// Where it came from, for messages: "the stapled OCSP response", "OCSP http://…", "CRL file ca.crl".
    public let source: String
    public let content: Result<[UInt8], RevocationFetchFailure>

    public init(kind: Kind, source: String, content: Result<[UInt8], RevocationFetchFailure>) {
        self.kind = kind
        self.source = source
        self.content = content
    }
}

/// Why a revocation document could not be obtained: one sentence, and whether the network failed (no answer: exit 3,
/// with that error's code) or a server answered with something that is not the document.
public struct RevocationFetchFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    /// The connection error's kind when nothing answered; nil when a server answered badly (an HTTP error status,
    /// a body that is not DER).
    public let networkKind: TLSConnectionError.Kind?
    /// The URL was not asked because its host is not a public address; a front end says how to allow it.
    public let refusedNonPublicDestination: Bool

    public init(_ description: String, networkKind: TLSConnectionError.Kind? = nil,
                refusedNonPublicDestination: Bool = false) {
        self.description = description
        self.networkKind = networkKind
        self.refusedNonPublicDestination = refusedNonPublicDestination
    }
}

/// OpenSSL's ASN.1 times as dates, and the evaluation time as OpenSSL's `time_t`.
enum RevocationTime {
    /// How far a response's thisUpdate may lie after, or its nextUpdate before, the evaluation time (clock skew),
    /// as `openssl ocsp -validity_period`'s default.
    static let leeway: TimeInterval = 300

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// thisUpdate to nextUpdate checked at `time`, with leeway; nil when fine. A missing nextUpdate means newer
    /// information is always available (RFC 6960 §4.2.2.1): nothing is stale then.
    static func problem(thisUpdate: Date?, nextUpdate: Date?, at time: Date) -> RevocationProblem? {
        guard let thisUpdate else { return .malformed("no readable thisUpdate") }
        if thisUpdate.timeIntervalSince(time) > leeway { return .notYetValid(thisUpdate: thisUpdate) }
        if let nextUpdate, time.timeIntervalSince(nextUpdate) > leeway { return .stale(nextUpdate: nextUpdate) }
        return nil
    }

    /// OpenSSL's name for a CRL reason code ("keyCompromise"); nil for none.
    static func reason(_ code: Int) -> String? {
        guard code >= 0, let name = OCSP_crl_reason_str(code) else { return nil }
        return String(cString: name)
    }
}
