internal import COpenSSL
import FoundationEssentials
import Glibc
import TextSyntax

/// One X.509 certificate, owning its `X509*`.
///
/// The derived values (DER, fingerprints, names, dates) are read once at initialization: a certificate is
/// immutable, and reading them eagerly means no OpenSSL call can fail later.
// @unchecked Sendable: the X509* is never mutated after parsing, and OpenSSL 3 guards its internal caches.
public final class X509Certificate: @unchecked Sendable {
    let pointer: OpaquePointer

    /// The DER encoding, byte for byte as parsed.
    public let derBytes: [UInt8]
    /// The DER SubjectPublicKeyInfo.
    public let spkiDER: [UInt8]
    /// SHA-256 over `derBytes`.
    public let sha256Fingerprint: [UInt8]
    /// SHA-256 over `spkiDER`: the value of an HPKP / OkHttp `sha256/` pin.
    public let spkiSHA256: [UInt8]
    /// Subject in RFC 2253 form, most specific first ("CN=pinning.test,O=pinctl Test").
    public let subject: String
    /// Issuer in RFC 2253 form.
    public let issuer: String
    /// Serial number in upper-case hexadecimal.
    public let serialNumber: String
    public let notBefore: Date
    public let notAfter: Date
    /// Subject alternative names as "DNS:name" or "IP:address", in certificate order.
    public let subjectAlternativeNames: [String]
    /// Key algorithm and size, e.g. "ECDSA P-256" or "RSA 2048".
    public let keyDescription: String
    /// Signature algorithm long name, e.g. "ecdsa-with-SHA256".
    public let signatureAlgorithm: String

    /// Wraps an `X509*` whose reference the caller hands over (a +1 from `d2i_X509`, `PEM_read_bio_X509`, …);
    /// `encoded` is its DER when the caller has it already (`encodedDER(of:)`).
    init(takingOwnership pointer: OpaquePointer, encoded: [UInt8]? = nil) throws {
        self.pointer = pointer
        do {
            derBytes = try encoded ?? Self.encodedDER(of: pointer)
            // get0: the X509_PUBKEY belongs to the certificate.
            guard let publicKey = X509_get_X509_PUBKEY(pointer) else {
                throw OpenSSLError.drain("read the certificate's public key")
            }
            spkiDER = try Self.encode("encode SubjectPublicKeyInfo") { i2d_X509_PUBKEY(publicKey, $0) }
            sha256Fingerprint = Digest.sha256(derBytes)
            spkiSHA256 = Digest.sha256(spkiDER)
            // get0: names belong to the certificate.
            subject = Self.format(X509_get_subject_name(pointer))
            issuer = Self.format(X509_get_issuer_name(pointer))
            serialNumber = Self.serial(of: pointer)
            notBefore = try Self.date(X509_get0_notBefore(pointer), "notBefore")
            notAfter = try Self.date(X509_get0_notAfter(pointer), "notAfter")
            subjectAlternativeNames = Self.alternativeNames(of: pointer)
            keyDescription = Self.describeKey(of: pointer)
            signatureAlgorithm = Self.objectName(nid: X509_get_signature_nid(pointer))
        } catch {
            X509_free(pointer)
            throw error
        }
    }

    deinit { X509_free(pointer) }

    /// Wraps a certificate OpenSSL lends from a trust store or a verification context (get0), or says why it cannot:
    /// OpenSSL loads store entries it cannot fully read (a malformed date), so this must not trap.
    static func readBack(borrowing pointer: OpaquePointer) -> Result<X509Certificate, any Error> {
        // The +1 taken here is released by the initializer when it throws, or by deinit.
        X509_up_ref(pointer)
        do {
            return .success(try X509Certificate(takingOwnership: pointer))
        } catch {
            return .failure(error)
        }
    }

    /// The subject of a borrowed `X509*` in RFC 2253 form: names a certificate that could not be wrapped.
    static func subject(of pointer: OpaquePointer) -> String {
        // get0: the name belongs to the certificate.
        format(X509_get_subject_name(pointer))
    }

    /// Parses exactly one DER certificate; trailing bytes are an error.
    public convenience init(derBytes: [UInt8]) throws {
        BuiltinKeyMethods.install()
        let parsed: OpaquePointer? = derBytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            if let x509, let cursor, cursor != buffer.baseAddress! + buffer.count {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else { throw OpenSSLError.drain("parse DER certificate") }
        try self.init(takingOwnership: parsed)
    }

    /// Calls `body` with the borrowed `X509*`; the pointer must not escape.
    func withUnsafeX509Pointer<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        try withExtendedLifetime(self) { try body(pointer) }
    }

    /// True when the certificate names itself as issuer and its signature verifies with its own key.
    public var isSelfSigned: Bool {
        // X509_self_signed compares names (and key identifiers) and, with 1, verifies the signature. Not
        // X509_check_issued: it also requires keyCertSign, which a self-signed end-entity certificate lacks.
        let selfSigned = X509_self_signed(pointer, 1) == 1
        OpenSSLError.clearQueue()
        return selfSigned
    }

    /// True when the certificate was read as a `TRUSTED CERTIFICATE`, with OpenSSL's auxiliary data (trust and reject
    /// settings, an alias): `X509_trusted` is whether it has any. Its DER encoding (`derBytes`) leaves that data out.
    public var carriesTrustSettings: Bool { X509_trusted(pointer) == 1 }

    /// The subject's common name, or the whole subject when it has none: short enough for messages and file names.
    public var commonNameOrSubject: String {
        let parts = subject.split(separator: ",")
        if let cn = parts.first(where: { $0.hasPrefix("CN=") }) { return String(cn.dropFirst(3)) }
        return subject
    }
}

extension X509Certificate: Equatable, Hashable {
    public static func == (lhs: X509Certificate, rhs: X509Certificate) -> Bool { lhs.derBytes == rhs.derBytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(sha256Fingerprint) }
}

extension X509Certificate {
    /// The DER of a borrowed `X509*`.
    static func encodedDER(of pointer: OpaquePointer) throws -> [UInt8] {
        try encode("encode certificate") { i2d_X509(pointer, $0) }
    }

    static func encode(_ operation: String, _ i2d: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) throws -> [UInt8] {
        // Given a NULL buffer, an i2d function allocates one and encodes once: asked for the length first, it encodes
        // twice, and an EC key's point is converted to affine form (a field inversion) each time.
        var encoded: UnsafeMutablePointer<UInt8>?
        let length = i2d(&encoded)
        defer { COpenSSLShim_OPENSSL_free(encoded) }
        guard length > 0, let encoded else { throw OpenSSLError.drain(operation) }
        return Array(UnsafeBufferPointer(start: encoded, count: Int(length)))
    }

    /// A name in RFC 2253 form; empty when OpenSSL cannot print it.
    static func format(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, COpenSSLShim_XN_FLAG_RFC2253()) >= 0 else { return "" }
        return BIOReader.string(from: bio)
    }

    private static func serial(of x509: OpaquePointer) -> String {
        // get0: the serial belongs to the certificate; the BIGNUM and its hex string are ours to free.
        guard let bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x509), nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { COpenSSLShim_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?, _ field: String) throws -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else {
            throw OpenSSLError.drain("read \(field)")
        }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The subject alternative names of `x509` as "DNS:name", "IP:address", …, in certificate order.
    static func alternativeNames(of x509: OpaquePointer) -> [String] {
        // get1-style: X509_get_ext_d2i returns a new GENERAL_NAMES that we free.
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else {
            ERR_clear_error()
            return []
        }
        let names = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(names) }
        var result: [String] = []
        for index in 0..<COpenSSLShim_sk_GENERAL_NAME_num(names) {
            guard let name = COpenSSLShim_sk_GENERAL_NAME_value(names, index) else { continue }
            switch name.pointee.type {
            case GEN_DNS:
                result.append("DNS:" + asciiString(name.pointee.d.dNSName))
            case GEN_IPADD:
                result.append("IP:" + ipString(name.pointee.d.iPAddress))
            case GEN_EMAIL:
                result.append("email:" + asciiString(name.pointee.d.rfc822Name))
            case GEN_URI:
                result.append("URI:" + asciiString(name.pointee.d.uniformResourceIdentifier))
            default:
                continue
            }
        }
        return result
    }

    private static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    static func asciiString(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        String(decoding: bytes(string), as: UTF8.self)
    }

    private static func ipString(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        let raw = bytes(string)
        let family: Int32
        switch raw.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return Hex.upper(raw)
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, raw, &text, socklen_t(text.count)) != nil else { return "" }
        return String(nulTerminated: text)
    }

    private static func describeKey(of x509: OpaquePointer) -> String {
        // get0: the EVP_PKEY belongs to the certificate.
        guard let key = X509_get0_pubkey(x509) else {
            ERR_clear_error()
            return "unknown key"
        }
        let bits = EVP_PKEY_get_bits(key)
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS:
            return "RSA \(bits)"
        case EVP_PKEY_EC:
            return "ECDSA \(curveName(of: key) ?? String(bits))"
        case EVP_PKEY_DSA: return "DSA \(bits)"
        case EVP_PKEY_ED25519: return "Ed25519"
        case EVP_PKEY_ED448: return "Ed448"
        default:
            return "\(objectName(nid: EVP_PKEY_get_base_id(key))) \(bits)"
        }
    }

    /// The NIST name of an EC key's curve ("P-256"), else OpenSSL's ("brainpoolP256r1"); nil for explicit parameters.
    static func curveName(of key: OpaquePointer) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        let curve = String(nulTerminated: name)
        let nist = [
            "prime192v1": "P-192", "secp224r1": "P-224", "prime256v1": "P-256", "secp384r1": "P-384",
            "secp521r1": "P-521",
        ]
        return nist[curve] ?? curve
    }

    static func objectName(nid: Int32) -> String {
        guard let name = OBJ_nid2ln(nid) else { return "unknown (\(nid))" }
        return String(cString: name)
    }
}

extension X509Certificate {
    /// The certificate as a PEM block, 64 base64 characters a line.
    public var pemString: String {
        let base64 = Data(derBytes).base64EncodedString()
        var lines: [Substring] = []
        var start = base64.startIndex
        while start < base64.endIndex {
            let end = base64.index(start, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(base64[start..<end])
            start = end
        }
        return "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
    }
}
