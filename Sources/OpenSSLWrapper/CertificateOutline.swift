internal import COpenSSL
import Synchronization

/// What of a certificate is read without decoding it whole: its DER, its subject and issuer, and the fingerprints of
/// it and of its key, as a trust store needs them to look an anchor up by name and to check it is the one expected.
///
/// `d2i_X509` decodes the public key as well, and `X509Certificate` formats every field: for a platform's store of
/// 150 roots, of which a chain reaches one or two, that was most of a run (#33). Here OpenSSL's `ASN1_get_object`
/// steps over the fields, and only the two names are decoded (`d2i_X509_NAME`, which computes the canonical form
/// OpenSSL compares and hashes names by); a certificate is decoded whole when a chain asks for its subject
/// (`AnchorLookup`).
// @unchecked Sendable: the X509_NAME is owned, never changed after init, and only read (X509_NAME_cmp) by OpenSSL.
public final class CertificateOutline: @unchecked Sendable {
    /// The DER encoding, byte for byte as read.
    public let derBytes: [UInt8]
    /// SHA-256 over `derBytes`.
    public let sha256Fingerprint: [UInt8]
    /// SHA-256 over the SubjectPublicKeyInfo as the certificate encodes it: the value of a `sha256/` pin.
    public let spkiSHA256: [UInt8]
    /// OpenSSL's hash of the subject and of the issuer (`X509_NAME_hash_ex`), as `X509Certificate` gives them.
    public let subjectNameHash: UInt
    public let issuerNameHash: UInt
    /// The decoded subject (`X509_NAME*`, owned), which lookups compare with `X509_NAME_cmp`.
    let subject: OpaquePointer
    /// The certificate decoded whole, once, when a store first asks for it: every store that holds the outline (each
    /// version's, and the unions NSC makes of them) then adds the same `X509*`. The inner nil: it cannot be decoded.
    private let decoded = Mutex<X509Certificate??>(nil)

    /// The certificate, decoded whole on first use; nil when OpenSSL cannot decode it.
    var certificate: X509Certificate? {
        decoded.withLock { decoded in
            if let known = decoded { return known }
            let certificate = try? X509Certificate(derBytes: derBytes)
            decoded = .some(certificate)
            return certificate
        }
    }

    /// The outline of one DER certificate, or nil when its structure up to the public key cannot be read. The
    /// signature and the fields after the key are not looked at: decoding the certificate whole (`X509Certificate`)
    /// still decides whether it can be used.
    public init?(der: [UInt8]) {
        guard let fields = Self.fields(of: der) else { return nil }
        func name(_ range: Range<Int>) -> OpaquePointer? {
            der[range].withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_X509_NAME(nil, &cursor, buffer.count)
            }
        }
        guard let subject = name(fields.subject) else {
            OpenSSLError.clearQueue()
            return nil
        }
        let subjectHash = UInt(X509_NAME_hash_ex(subject, nil, nil, nil))
        // A root's issuer is its subject, byte for byte: the same bytes have the same canonical form and hash, so
        // the name is decoded once.
        if der[fields.issuer].elementsEqual(der[fields.subject]) {
            issuerNameHash = subjectHash
        } else {
            guard let issuer = name(fields.issuer) else {
                X509_NAME_free(subject)
                OpenSSLError.clearQueue()
                return nil
            }
            issuerNameHash = UInt(X509_NAME_hash_ex(issuer, nil, nil, nil))
            X509_NAME_free(issuer)
        }
        derBytes = der
        self.subject = subject
        subjectNameHash = subjectHash
        sha256Fingerprint = Digest.sha256(der)
        spkiSHA256 = Digest.sha256(Array(der[fields.publicKey]))
    }

    deinit { X509_NAME_free(subject) }

    /// Every certificate of a PEM text, or nil when it holds anything but plain `CERTIFICATE` blocks (a `TRUSTED
    /// CERTIFICATE` with trust settings, a CRL, an encrypted block) or a block whose outline cannot be read.
    public static func pem(_ bytes: [UInt8]) -> [CertificateOutline]? {
        bytes.withUnsafeBytes { buffer -> [CertificateOutline]? in
            // BIO_new_mem_buf does not copy: the BIO lives only inside this closure.
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return nil }
            defer { BIO_free(bio) }
            var outlines: [CertificateOutline] = []
            while true {
                var label: UnsafeMutablePointer<CChar>?
                var header: UnsafeMutablePointer<CChar>?
                var data: UnsafeMutablePointer<UInt8>?
                var length = 0
                guard PEM_read_bio(bio, &label, &header, &data, &length) == 1 else {
                    let code = ERR_peek_last_error()
                    OpenSSLError.clearQueue()
                    let ended = ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE
                    return ended ? outlines : nil
                }
                defer {
                    COpenSSLShim_OPENSSL_free(label)
                    COpenSSLShim_OPENSSL_free(header)
                    COpenSSLShim_OPENSSL_free(data)
                }
                guard let label, String(cString: label) == "CERTIFICATE", let header, header.pointee == 0, let data,
                      let outline = CertificateOutline(der: Array(UnsafeBufferPointer(start: data, count: length)))
                else { return nil }
                outlines.append(outline)
            }
        }
    }

    /// Where the issuer, the subject and the SubjectPublicKeyInfo lie in `der` (each a whole TLV): Certificate and
    /// TBSCertificate are entered, then version (when present), serialNumber, signature and validity stepped over.
    private static func fields(of der: [UInt8])
        -> (issuer: Range<Int>, subject: Range<Int>, publicKey: Range<Int>)?
    {
        der.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return nil }
            let end = start + buffer.count
            var cursor: UnsafePointer<UInt8>? = start
            // One TLV header: the cursor moves to its contents; nil when it is malformed or overruns the input.
            func header() -> (tag: Int32, tagClass: Int32, length: Int)? {
                guard let at = cursor, at < end else { return nil }
                var length = 0
                var tag: Int32 = 0
                var tagClass: Int32 = 0
                // 0x80 in the result is ASN1_get_object's error bit (it has no named constant); 0x20 says the
                // encoding is constructed, and 0x21 that its length is indefinite, which DER never is.
                let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - at)
                guard flags & 0x80 == 0, flags != 0x21, let contents = cursor, length <= end - contents else {
                    return nil
                }
                return (tag, tagClass, length)
            }
            func enterSequence() -> Bool { header().map { $0.tag == V_ASN1_SEQUENCE && $0.tagClass == 0 } ?? false }
            // A whole field, as offsets into `der`; the cursor moves past it.
            func field(_ expected: Int32? = nil) -> (range: Range<Int>, tag: Int32, tagClass: Int32)? {
                guard let fieldStart = cursor, let found = header() else { return nil }
                guard expected.map({ found.tag == $0 && found.tagClass == 0 }) ?? true else { return nil }
                cursor! += found.length
                return ((fieldStart - start)..<(cursor! - start), found.tag, found.tagClass)
            }
            guard enterSequence(), enterSequence(), let first = field() else { return nil }
            // version [0] EXPLICIT is optional (absent in v1 certificates): then the first field was serialNumber.
            if first.tagClass == V_ASN1_CONTEXT_SPECIFIC && first.tag == 0 { guard field() != nil else { return nil } }
            guard field(V_ASN1_SEQUENCE) != nil,  // signature
                  let issuer = field(V_ASN1_SEQUENCE), field(V_ASN1_SEQUENCE) != nil,  // validity
                  let subject = field(V_ASN1_SEQUENCE), let publicKey = field(V_ASN1_SEQUENCE)
            else { return nil }
            return (issuer.range, subject.range, publicKey.range)
        }
    }
}
