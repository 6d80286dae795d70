internal import COpenSSL
import FileAccess
import FoundationEssentials

/// Why bytes that should hold certificates do not.
public struct CertificateParseError: Error, CustomStringConvertible, Sendable {
    /// The file at fault, when the bytes came from one.
    public var path: String?
    public var reason: String

    public init(path: String? = nil, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}

/// Every certificate in PEM or DER input; the format is detected from the content, not the file name.
public enum CertificateParser {
    /// Reads and parses a file: a PEM bundle (one or more certificates) or one or more concatenated DER certificates.
    public static func certificates(atPath path: String) throws(CertificateParseError) -> [X509Certificate] {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw CertificateParseError(path: path, reason: error.reason)
        }
        do {
            return try certificates(from: bytes)
        } catch var error {
            error.path = path
            throw error
        }
    }

    /// Parses certificates from bytes; throws when there is none or any part is malformed.
    public static func certificates(from bytes: [UInt8]) throws(CertificateParseError) -> [X509Certificate] {
        guard !bytes.isEmpty else { throw CertificateParseError(reason: "empty file: no certificate") }
        BuiltinKeyMethods.install()
        OpenSSLError.clearQueue()
        guard looksLikePEM(bytes) else { return try der(bytes) }
        // A DER certificate may carry "-----BEGIN " inside a name: bytes that open with a SEQUENCE and read whole
        // as DER are DER. PEM text that starts with "0" (0x30) fails as DER at once.
        if bytes[0] == 0x30, let certificates = try? der(bytes) { return certificates }
        return try pem(bytes)
    }

    private static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<start + marker.count].elementsEqual(marker) { return true }
        }
        return false
    }

    private static func pem(_ bytes: [UInt8]) throws(CertificateParseError) -> [X509Certificate] {
        let result: Result<[X509Certificate], CertificateParseError> = bytes.withUnsafeBytes { buffer in
            // BIO_new_mem_buf does not copy: the BIO lives only inside this closure.
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                fatalError("BIO_new_mem_buf: out of memory")
            }
            defer { BIO_free(bio) }
            var found: [X509Certificate] = []
            while true {
                // _AUX also reads "BEGIN TRUSTED CERTIFICATE"; blocks of other types (keys) are skipped.
                guard let x509 = PEM_read_bio_X509_AUX(bio, nil, nil, nil) else { break }
                do {
                    found.append(try X509Certificate(takingOwnership: x509))
                } catch {
                    return .failure(CertificateParseError(reason: "malformed certificate #\(found.count + 1): \(error)"))
                }
            }
            let code = ERR_peek_last_error()
            let endOfInput = ERR_GET_LIB(code) == ERR_LIB_PEM && ERR_GET_REASON(code) == PEM_R_NO_START_LINE
            if endOfInput || code == 0 {
                OpenSSLError.clearQueue()
                if found.isEmpty {
                    return .failure(CertificateParseError(reason: "no certificate in PEM input (only other PEM blocks, e.g. a private key)"))
                }
                return .success(found)
            }
            let detail = OpenSSLError.drain("read PEM")
            return .failure(CertificateParseError(reason: "malformed PEM certificate #\(found.count + 1): \(detail.queue.joined(separator: "; "))"))
        }
        return try result.get()
    }

    private static func der(_ bytes: [UInt8]) throws(CertificateParseError) -> [X509Certificate] {
        var found: [X509Certificate] = []
        var offset = 0
        while offset < bytes.count {
            let step: Result<(X509Certificate, Int), CertificateParseError> = bytes.withUnsafeBufferPointer { buffer in
                let start = buffer.baseAddress! + offset
                var cursor: UnsafePointer<UInt8>? = start
                guard let x509 = d2i_X509(nil, &cursor, buffer.count - offset), let cursor else {
                    let detail = OpenSSLError.drain("parse DER").queue.joined(separator: "; ")
                    let what = found.isEmpty ? "neither a PEM nor a DER certificate" : "malformed DER after certificate #\(found.count)"
                    return .failure(CertificateParseError(reason: detail.isEmpty ? what : "\(what) (\(detail))"))
                }
                do {
                    return .success((try X509Certificate(takingOwnership: x509), cursor - start))
                } catch {
                    return .failure(CertificateParseError(reason: "malformed certificate #\(found.count + 1): \(error)"))
                }
            }
            let (certificate, consumed) = try step.get()
            found.append(certificate)
            offset += consumed
        }
        return found
    }
}
