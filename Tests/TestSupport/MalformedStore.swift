import Foundation

/// A hashed CA directory (`openssl rehash`) whose only entry OpenSSL loads but whose notBefore cannot be read: the
/// fixture root with the 13 bytes of its UTCTime notBefore replaced by `2501010000AAZ`.
///
/// The bytes are patched in the DER, so the root's self-signature no longer verifies; an anchor's own signature is
/// not checked, and OpenSSL stops at the date (error 13) when it reaches the root.
public enum MalformedStore {
    /// The subject of the patched root, as pinctl prints subjects (RFC 2253).
    public static let subject = "CN=pinctl Test Root CA,O=pinctl Test"

    /// Writes the patched root as PEM into `directory`, hashes the directory and returns its path.
    @discardableResult
    public static func make(in directory: String) throws -> String {
        let der = Certs.bytes("root-ca.der")
        // UTCTime (tag 0x17), 13 bytes: the root's notBefore, 2025-01-01 (its notAfter, 2125, is a GeneralizedTime).
        let notBefore: [UInt8] = [0x17, 0x0D] + Array("250101000000Z".utf8)
        let malformed: [UInt8] = [0x17, 0x0D] + Array("2501010000AAZ".utf8)
        let starts = (0...(der.count - notBefore.count)).filter { Array(der[$0..<($0 + notBefore.count)]) == notBefore }
        guard starts.count == 1, let start = starts.first else {
            throw Failure("root-ca.der holds \(starts.count) copies of its notBefore; expected exactly one")
        }
        var patched = der
        patched.replaceSubrange(start..<(start + notBefore.count), with: malformed)
        let pem = "-----BEGIN CERTIFICATE-----\n"
            + Data(patched).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            + "\n-----END CERTIFICATE-----\n"
        try Data(pem.utf8).write(to: URL(fileURLWithPath: directory + "/malformed-root.pem"))
        let rehash = try Subprocess.run("openssl", ["rehash", directory])
        guard rehash.status == 0 else { throw Failure("openssl rehash \(directory) failed: \(rehash.stderr)") }
        return directory
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
