internal import COpenSSL

/// A PKCS#10 certificate signing request, owning its `X509_REQ*`.
// @unchecked Sendable: the request is never changed after it is signed.
public final class CertificateSigningRequest: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Wraps an `X509_REQ*` whose reference the caller hands over.
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_REQ_free(pointer) }

    /// A request for `subject` (attribute and value pairs in ASN.1 order, the most general first), carrying `key`'s
    /// public half and signed with it over SHA-256. Throws naming an attribute OpenSSL does not know.
    public static func make(
        subject: [(attribute: String, value: String)], key: PrivateKey
    ) throws(OpenSSLError) -> CertificateSigningRequest {
        guard let pointer = X509_REQ_new() else { throw OpenSSLError.drain("allocate a certificate request") }
        // Freed by deinit from here on, whatever fails below.
        let request = CertificateSigningRequest(takingOwnership: pointer)
        // Version 1, the only one, is written as 0.
        guard X509_REQ_set_version(pointer, 0) == 1 else { throw OpenSSLError.drain("set the request's version") }
        // get0: the name belongs to the request.
        guard let name = X509_REQ_get_subject_name(pointer) else { throw OpenSSLError.drain("read the subject") }
        for (attribute, value) in subject {
            let bytes = Array(value.utf8)
            guard X509_NAME_add_entry_by_txt(name, attribute, MBSTRING_UTF8, bytes, Int32(bytes.count), -1, 0) == 1
            else { throw OpenSSLError.drain("add the attribute \(attribute)") }
        }
        let signed = key.withUnsafeKeyPointer { key in
            // set_pubkey takes its own reference to the key.
            X509_REQ_set_pubkey(pointer, key) == 1 && X509_REQ_sign(pointer, key, EVP_sha256()) > 0
        }
        guard signed else { throw OpenSSLError.drain("sign the certificate request") }
        return request
    }

    /// The request as PEM (`BEGIN CERTIFICATE REQUEST`).
    public func pem() throws(OpenSSLError) -> [UInt8] {
        try MemoryBIO.contents("write the certificate request as PEM") { bio in PEM_write_bio_X509_REQ(bio, pointer) }
    }
}
