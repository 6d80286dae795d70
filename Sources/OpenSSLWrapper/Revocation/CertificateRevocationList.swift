internal import COpenSSL
import FoundationEssentials

/// One X.509 CRL, owning its `X509_CRL*`.
// @unchecked Sendable: the X509_CRL* is never mutated after parsing; lookups only read it.
public final class CertificateRevocationList: @unchecked Sendable {
    let pointer: OpaquePointer
    /// The issuer's name in RFC 2253 form.
    public let issuer: String

    private init(takingOwnership pointer: OpaquePointer) {
        self.pointer = pointer
        // get0: the name belongs to the CRL.
        issuer = X509Certificate.format(X509_CRL_get_issuer(pointer))
    }

    deinit { X509_CRL_free(pointer) }

    /// Every CRL in `bytes`: one DER CRL, or PEM blocks (`BEGIN X509 CRL`).
    public static func parse(_ bytes: [UInt8]) throws(OpenSSLError) -> [CertificateRevocationList] {
        OpenSSLError.clearQueue()
        defer { OpenSSLError.clearQueue() }
        if bytes.starts(with: Array("-----BEGIN".utf8)) || bytes.contains(0x2D) && !bytes.starts(with: [0x30]) {
            return try parsePEM(bytes)
        }
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509_CRL(nil, &cursor, buffer.count)
        }
        guard let crl = parsed else { throw OpenSSLError.drain("parse a DER CRL") }
        return [CertificateRevocationList(takingOwnership: crl)]
    }

    private static func parsePEM(_ bytes: [UInt8]) throws(OpenSSLError) -> [CertificateRevocationList] {
        var lists: [CertificateRevocationList] = []
        // withUnsafeBytes only rethrows untyped errors: the closure reports failure by its result instead.
        let opened = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            // The BIO borrows the bytes: used only inside this closure.
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(clamping: raw.count)) else { return false }
            defer { BIO_free(bio) }
            while let crl = PEM_read_bio_X509_CRL(bio, nil, nil, nil) {
                lists.append(CertificateRevocationList(takingOwnership: crl))
            }
            return true
        }
        guard opened else { throw OpenSSLError.drain("read CRL bytes") }
        // The end of input leaves PEM_R_NO_START_LINE behind; with nothing read it is the error.
        guard !lists.isEmpty else { throw OpenSSLError.drain("parse a PEM CRL") }
        return lists
    }

    /// What this CRL says about `certificate`, issued by `issuer`, at `time`: not applicable unless `issuer` signed
    /// it for `certificate`'s issuer name; listed (revoked, unless only on hold and then removed) or not.
    public func judge(_ certificate: X509Certificate, issuer: X509Certificate, at time: Date) -> RevocationOutcome {
        defer { OpenSSLError.clearQueue() }
        // get0: the names belong to their owners.
        guard X509_NAME_cmp(X509_CRL_get_issuer(pointer), X509_get_issuer_name(certificate.pointer)) == 0 else {
            return .notApplicable
        }
        guard let key = X509_get0_pubkey(issuer.pointer), X509_CRL_verify(pointer, key) == 1 else {
            let reasons = OpenSSLError.drainQueue()
            return .invalid(.signature("not signed by the key of \(issuer.subject)"
                + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")))
        }
        if let problem = RevocationTime.problem(
            thisUpdate: RevocationTime.date(X509_CRL_get0_lastUpdate(pointer)),
            nextUpdate: X509_CRL_get0_nextUpdate(pointer).flatMap { RevocationTime.date($0) }, at: time)
        {
            return .invalid(problem)
        }
        var entry: OpaquePointer?
        // 1: listed; 2: listed as removeFromCRL (no longer on hold); 0: not listed. get0: the entry belongs to the
        // CRL.
        guard X509_CRL_get0_by_cert(pointer, &entry, certificate.pointer) == 1, let entry else {
            return .answer(.good)
        }
        var reason: String?
        // get1-style: a new ASN1_ENUMERATED, freed here.
        if let raw = X509_REVOKED_get_ext_d2i(entry, NID_crl_reason, nil, nil) {
            let code = raw.assumingMemoryBound(to: ASN1_ENUMERATED.self)
            reason = RevocationTime.reason(Int(ASN1_ENUMERATED_get(code)))
            ASN1_ENUMERATED_free(code)
        }
        return .answer(.revoked(on: RevocationTime.date(X509_REVOKED_get0_revocationDate(entry)), reason: reason))
    }
}
