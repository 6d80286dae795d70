internal import COpenSSL
import FoundationEssentials

/// The certificates that may have issued a certificate: presented intermediates and trust store entries, matched by
/// name and authority key identifier, most preferred first. Owns the `X509_STORE_CTX` it searches the store with.
// Not Sendable: one lookup serves one path search, on one thread.
final class IssuerLookup {
    /// A possible issuer, and whether it is a trust anchor (it came from the store, so a path ends there).
    struct Candidate {
        let certificate: X509Certificate
        let isAnchor: Bool
    }

    private let context: OpaquePointer
    private let store: TrustStore
    private let untrusted: [X509Certificate]
    private let time: Date
    /// The store's certificates by the issuer name asked for, read once each (a lookup may decode bundle entries).
    private var storeEntries: [String: [X509Certificate]] = [:]

    /// nil when OpenSSL cannot set up a context on `store` (then nothing but OpenSSL's own path is tried).
    init?(store: TrustStore, untrusted: [X509Certificate], time: Date) {
        guard let context = X509_STORE_CTX_new() else { fatalError("X509_STORE_CTX_new: out of memory") }
        guard X509_STORE_CTX_init(context, store.pointer, nil, nil) == 1 else {
            X509_STORE_CTX_free(context)
            OpenSSLError.clearQueue()
            return nil
        }
        self.context = context
        self.store = store
        self.untrusted = untrusted
        self.time = time
    }

    deinit { X509_STORE_CTX_free(context) }

    /// The possible issuers of `certificate`, in the order a platform tries them:
    /// 1. trust anchors before presented intermediates: conscrypt's `TrustManagerImpl.checkTrustedRecursive` looks
    ///    for a trust anchor first ("Try building with a trust anchor first"), as Apple's `SecPathBuilder` consults
    ///    its anchor sources before the certificates the server sent, and OpenSSL's own trusted-first default does;
    /// 2. then one valid at the evaluation time before one that is not: Apple's `SecPathBuilder` scores a path with
    ///    an expired or not-yet-valid certificate below a valid one, and OpenSSL's `find_issuer` prefers a
    ///    time-valid issuer too;
    /// 3. then one whose subject key identifier is the certificate's authority key identifier before one matched by
    ///    name only (RFC 4158 §3.5.12, "Matching Key Identifiers");
    /// 4. then the newer notBefore first (conscrypt's `CertificatePriorityComparator`, "notBefore date descending";
    ///    RFC 4158 §3.5.8 prefers the more recently issued), and last the order the server sent them in.
    func issuers(of certificate: X509Certificate) -> [Candidate] {
        let anchors = storeCertificates(named: certificate).filter { Self.mayHaveIssued($0, certificate) }
        // A presented copy of a store entry is that anchor: the path ends there, as Apple's does and as OpenSSL's
        // partial-chain check does.
        let presented = untrusted.filter { candidate in
            Self.mayHaveIssued(candidate, certificate) && !anchors.contains(candidate)
        }
        let keyID = Self.authorityKeyID(of: certificate)
        let ranked = (anchors.map { Candidate(certificate: $0, isAnchor: true) }
            + presented.map { Candidate(certificate: $0, isAnchor: false) }).enumerated().map { index, candidate in
            (candidate, index, rank(candidate, keyID: keyID))
        }
        return ranked.sorted { lhs, rhs in
            lhs.2 != rhs.2 ? lhs.2.lexicographicallyPrecedes(rhs.2) : lhs.1 < rhs.1
        }.map(\.0)
    }

    /// Smaller sorts first: anchor, valid at the time, key identifier match, newer notBefore.
    private func rank(_ candidate: Candidate, keyID: [UInt8]?) -> [Double] {
        let issuer = candidate.certificate
        let valid = issuer.notBefore <= time && time <= issuer.notAfter
        let keyMatch = keyID != nil && keyID == Self.subjectKeyID(of: issuer)
        return [candidate.isAnchor ? 0 : 1, valid ? 0 : 1, keyMatch ? 0 : 1, -issuer.notBefore.timeIntervalSince1970]
    }

    /// Every store certificate whose subject is the issuer name of `certificate`.
    private func storeCertificates(named certificate: X509Certificate) -> [X509Certificate] {
        if let known = storeEntries[certificate.issuer] { return known }
        defer { OpenSSLError.clearQueue() }
        // get1: the stack and its certificates are ours; each kept certificate takes its own reference.
        let found = certificate.withUnsafeX509Pointer { X509_STORE_CTX_get1_certs(context, X509_get_issuer_name($0)) }
        var entries: [X509Certificate] = []
        if let found {
            defer { COpenSSLShim_sk_X509_pop_free(found) }
            for index in 0..<COpenSSLShim_sk_X509_num(found) {
                guard let pointer = COpenSSLShim_sk_X509_value(found, index),
                      case .success(let entry) = X509Certificate.readBack(borrowing: pointer) else { continue }
                entries.append(entry)
            }
        }
        storeEntries[certificate.issuer] = entries
        return entries
    }

    /// Whether `issuer` may have issued `subject`: names, authority key identifier and signature algorithm agree
    /// (`X509_check_issued`). An issuer without keyCertSign still counts: verifying that path says why it fails.
    private static func mayHaveIssued(_ issuer: X509Certificate, _ subject: X509Certificate) -> Bool {
        let result = issuer.withUnsafeX509Pointer { issuerPointer in
            subject.withUnsafeX509Pointer { X509_check_issued(issuerPointer, $0) }
        }
        OpenSSLError.clearQueue()
        return result == X509_V_OK || result == X509_V_ERR_KEYUSAGE_NO_CERTSIGN
    }

    private static func authorityKeyID(of certificate: X509Certificate) -> [UInt8]? {
        // get0: the identifier belongs to the certificate.
        certificate.withUnsafeX509Pointer { bytes(X509_get0_authority_key_id($0)) }
    }

    private static func subjectKeyID(of certificate: X509Certificate) -> [UInt8]? {
        // get0: the identifier belongs to the certificate.
        certificate.withUnsafeX509Pointer { bytes(X509_get0_subject_key_id($0)) }
    }

    private static func bytes(_ string: UnsafePointer<ASN1_OCTET_STRING>?) -> [UInt8]? {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }
}
