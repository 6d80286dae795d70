internal import COpenSSL
import FileAccess

/// A PEM bundle of trust anchors (`SSL_CERT_FILE`, Debian's ca-certificates.crt) that OpenSSL looks up by subject,
/// as it looks up a hashed directory, instead of loading every certificate up front.
///
/// `X509_STORE_load_file` decodes each certificate whole, public key included: OpenSSL 3.0 builds a key decoder
/// for each, 1.2 M instructions, so the 139 roots of Debian's bundle cost about 30 ms before the first lookup (#12).
/// (That was before `BuiltinKeyMethods` took RSA and EC keys off the decoders; decoding every root whole still costs
/// what looking up the one a chain needs does not.)
/// Here only the subject of each is read (OpenSSL's `ASN1_get_object` steps over the fields before it), and a
/// certificate is decoded when a chain asks for its subject.
///
/// Only a bundle of plain `CERTIFICATE` blocks is indexed. Anything else OpenSSL would read from the file (a
/// `TRUSTED CERTIFICATE` with trust settings, a CRL, an encrypted block) or a block whose subject cannot be read
/// leaves the file to `X509_STORE_load_file`, so such a bundle means what it always meant.
final class CertificateBundleLookup {
    /// A certificate of the bundle: its subject decoded (an `X509_NAME*`, owned), its DER kept for when it is asked for.
    private struct Entry {
        let subject: OpaquePointer
        let der: [UInt8]
    }

    private let entries: [Entry]

    private init(entries: [Entry]) { self.entries = entries }

    deinit {
        for entry in entries { X509_NAME_free(entry.subject) }
    }

    /// Adds the bundle at `path` to `store`: as a lookup when it can be indexed, else loaded whole by OpenSSL.
    static func add(_ path: String, to store: OpaquePointer) {
        guard let bytes = try? FileInput.read(path), let lookup = index(bytes),
              let added = X509_STORE_add_lookup(store, method) else {
            // A missing or unreadable file leaves the store as OpenSSL leaves it: without the file's anchors.
            _ = PathBytes.withCString(path) { X509_STORE_load_file(store, $0) }
            return
        }
        // The lookup owns the index from here; the method's `free` releases it with the store.
        X509_LOOKUP_set_method_data(added, Unmanaged.passRetained(lookup).toOpaque())
    }

    /// Every certificate's subject, or nil when the bundle holds anything but plain `CERTIFICATE` blocks.
    private static func index(_ bytes: [UInt8]) -> CertificateBundleLookup? {
        var entries: [Entry] = []
        let complete: Bool = bytes.withUnsafeBytes { buffer in
            // BIO_new_mem_buf does not copy: the BIO lives only inside this closure.
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(clamping: buffer.count)) else { return false }
            defer { BIO_free(bio) }
            while true {
                var label: UnsafeMutablePointer<CChar>?
                var header: UnsafeMutablePointer<CChar>?
                var data: UnsafeMutablePointer<UInt8>?
                var length = 0
                guard PEM_read_bio(bio, &label, &header, &data, &length) == 1 else {
                    let code = ERR_peek_last_error()
                    OpenSSLError.clearQueue()
                    return ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE
                }
                defer {
                    COpenSSLShim_OPENSSL_free(label)
                    COpenSSLShim_OPENSSL_free(header)
                    COpenSSLShim_OPENSSL_free(data)
                }
                guard let label, String(cString: label) == "CERTIFICATE", let header, header.pointee == 0,
                      let data else { return false }
                let der = Array(UnsafeBufferPointer(start: data, count: length))
                guard let subject = subject(of: der) else { return false }
                entries.append(Entry(subject: subject, der: der))
            }
        }
        // Made either way, so that its deinit frees the subjects read so far.
        let lookup = CertificateBundleLookup(entries: entries)
        return complete ? lookup : nil
    }

    /// The subject of a DER certificate, decoded, without decoding the rest: Certificate and TBSCertificate are
    /// entered, then version (when present), serialNumber, signature, issuer and validity are stepped over.
    private static func subject(of der: [UInt8]) -> OpaquePointer? {
        der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            guard let start = buffer.baseAddress else { return nil }
            let end = start + buffer.count
            var cursor: UnsafePointer<UInt8>? = start
            // One TLV header: the cursor moves to its contents; nil when it is malformed or overruns the input.
            func header() -> (tag: Int32, tagClass: Int32, length: Int)? {
                guard let at = cursor, at < end else { return nil }
                var length = 0
                var tag: Int32 = 0
                var tagClass: Int32 = 0
                // 0x80 in the result is ASN1_get_object's error bit (it has no named constant).
                let flags = ASN1_get_object(&cursor, &length, &tag, &tagClass, end - at)
                guard flags & 0x80 == 0, let contents = cursor, length <= end - contents else { return nil }
                return (tag, tagClass, length)
            }
            func enterSequence() -> Bool { header().map { $0.tag == V_ASN1_SEQUENCE && $0.tagClass == 0 } ?? false }
            func skip() -> (tag: Int32, tagClass: Int32)? {
                guard let field = header() else { return nil }
                cursor! += field.length
                return (field.tag, field.tagClass)
            }
            guard enterSequence(), enterSequence(), let first = skip() else { return nil }
            // version [0] EXPLICIT is optional (absent in v1 certificates): then the first field was serialNumber.
            if first.tagClass == V_ASN1_CONTEXT_SPECIFIC && first.tag == 0 { guard skip() != nil else { return nil } }
            for _ in 0..<3 { guard skip() != nil else { return nil } }  // signature, issuer, validity
            guard let subjectStart = cursor, let subject = header(), subject.tag == V_ASN1_SEQUENCE else { return nil }
            let subjectLength = (cursor! - subjectStart) + subject.length
            var nameCursor: UnsafePointer<UInt8>? = subjectStart
            return d2i_X509_NAME(nil, &nameCursor, subjectLength)
        }
    }

    /// The lookup OpenSSL calls for a subject it has not cached: every bundle certificate with that subject is
    /// decoded and added to the store, and one of them handed back, as `X509_LOOKUP_store` does.
    // nonisolated(unsafe): the method is written once, by this initializer, and only read by OpenSSL afterwards.
    nonisolated(unsafe) private static let method: OpaquePointer = {
        guard let method = X509_LOOKUP_meth_new("pinctl PEM bundle by subject") else {
            fatalError("X509_LOOKUP_meth_new: out of memory")
        }
        _ = X509_LOOKUP_meth_set_get_by_subject(method) { lookup, type, name, result in
            guard let lookup, let name, let result, type == X509_LU_X509, let data = X509_LOOKUP_get_method_data(lookup),
                  let store = X509_LOOKUP_get_store(lookup) else { return 0 }
            let bundle = Unmanaged<CertificateBundleLookup>.fromOpaque(data).takeUnretainedValue()
            for entry in bundle.entries where X509_NAME_cmp(entry.subject, name) == 0 {
                let certificate: OpaquePointer? = entry.der.withUnsafeBufferPointer { buffer in
                    var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                    return d2i_X509(nil, &cursor, buffer.count)
                }
                // X509_STORE_add_cert takes its own reference; one the store holds already is not added twice.
                if let certificate {
                    X509_STORE_add_cert(store, certificate)
                    X509_free(certificate)
                }
            }
            OpenSSLError.clearQueue()
            guard X509_STORE_lock(store) == 1 else { return 0 }
            let cached = X509_OBJECT_retrieve_by_subject(X509_STORE_get0_objects(store), X509_LU_X509, name)
            let certificate = cached.flatMap { X509_OBJECT_get0_X509($0) }
            // set1 takes a reference, and so does X509_STORE_CTX_get_by_subject when this returns: the first is given
            // back here (the store keeps its own), as OpenSSL's by_store.c does.
            let found = certificate.map { X509_OBJECT_set1_X509(result, $0) == 1 } ?? false
            X509_STORE_unlock(store)
            if found, let certificate { X509_free(certificate) }
            return found ? 1 : 0
        }
        _ = X509_LOOKUP_meth_set_free(method) { lookup in
            guard let lookup, let data = X509_LOOKUP_get_method_data(lookup) else { return }
            Unmanaged<CertificateBundleLookup>.fromOpaque(data).release()
        }
        return method
    }()
}
