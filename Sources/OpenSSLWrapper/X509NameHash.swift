internal import COpenSSL

extension X509Certificate {
    /// OpenSSL's hash of the subject in its canonical form (`X509_NAME_hash_ex`: SHA-1 of the encoding lower-cased
    /// and space-folded, which d2i computes once when parsing): the key OpenSSL looks issuers up by, so names it takes
    /// as equal hash alike.
    public var subjectNameHash: UInt {
        withUnsafeX509Pointer { UInt(X509_NAME_hash_ex(X509_get_subject_name($0), nil, nil, nil)) }
    }

    /// The same hash of the issuer's name.
    public var issuerNameHash: UInt {
        withUnsafeX509Pointer { UInt(X509_NAME_hash_ex(X509_get_issuer_name($0), nil, nil, nil)) }
    }
}
