internal import COpenSSL
import Foundation

/// A set of trust anchors, owning its `X509_STORE*`.
// @unchecked Sendable: OpenSSL locks an X509_STORE internally; after construction pinctl only verifies against it.
public final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Where the anchors came from, for messages ("the system trust store", "--ca-file root.pem").
    public let origin: String

    private init(origin: String) {
        guard let store = X509_STORE_new() else { fatalError("X509_STORE_new: out of memory") }
        self.pointer = store
        self.origin = origin
    }

    deinit { X509_STORE_free(pointer) }

    /// OpenSSL's default verify paths: `SSL_CERT_DIR` or the default hashed directory, looked up lazily, and
    /// `SSL_CERT_FILE` or the default bundle when no such directory exists.
    ///
    /// The hashed directory is preferred because parsing the whole bundle up front costs tens of milliseconds,
    /// most of a one-shot run; a directory lookup reads only the certificates a chain needs.
    public static func system() -> TrustStore {
        let store = TrustStore(origin: "the system trust store")
        let directory = PathBytes.environment(String(cString: X509_get_default_cert_dir_env()))
            ?? String(cString: X509_get_default_cert_dir())
        let file = PathBytes.environment(String(cString: X509_get_default_cert_file_env()))
        let hasDirectory = (try? FileSystem.kind(of: directory)) == .directory
        if hasDirectory {
            _ = PathBytes.withCString(directory) { X509_STORE_load_path(store.pointer, $0) }
        }
        // Only a regular file is handed to OpenSSL, which would block on a named pipe.
        if let file {
            if (try? FileSystem.kind(of: file)) == .regular {
                _ = PathBytes.withCString(file) { X509_STORE_load_file(store.pointer, $0) }
            }
        } else if !hasDirectory {
            _ = X509_STORE_load_file(store.pointer, X509_get_default_cert_file())
        }
        // A missing default location is not an error: the store is then empty and every chain fails to verify.
        OpenSSLError.clearQueue()
        return store
    }

    /// Anchors from CA files (PEM bundles or DER) and hashed CA directories, replacing the system store.
    public static func caFiles(_ files: [String], directories: [String]) throws(CertificateParseError) -> TrustStore {
        let names = files.map { "--ca-file \($0)" } + directories.map { "--ca-path \($0)" }
        let store = TrustStore(origin: names.joined(separator: ", "))
        for file in files {
            try store.add(try CertificateParser.certificates(atPath: file))
        }
        for directory in directories {
            try checkHashedDirectory(directory)
            let loaded = PathBytes.withCString(directory) { X509_STORE_load_path(store.pointer, $0) }
            guard loaded == 1 else {
                throw CertificateParseError(path: directory, reason: OpenSSLError.drain("load CA directory").description)
            }
        }
        return store
    }

    /// A `--ca-path` must be a directory, and every hashed name in it (`1a2b3c4d.0`) a regular file: OpenSSL opens
    /// them lazily, while verifying, and would block there forever on a named pipe.
    private static func checkHashedDirectory(_ directory: String) throws(CertificateParseError) {
        let names: [String]
        do throws(FileSystemError) {
            guard try FileSystem.kind(of: directory) == .directory else {
                throw FileSystemError(reason: "--ca-path needs a directory of hashed certificates (see `openssl rehash`)")
            }
            names = try FileSystem.entries(ofDirectory: directory)
        } catch {
            throw CertificateParseError(path: directory, reason: error.reason)
        }
        for name in names where isHashedName(name) {
            let entry = Path.join(directory, name)
            guard let kind = try? FileSystem.kind(of: entry), kind != .regular else { continue }
            throw CertificateParseError(path: entry, reason: "is \(kind.name), not a regular file (in --ca-path)")
        }
    }

    /// `openssl rehash` names: eight hex digits, a dot, an optional `r` (CRLs) and a sequence number.
    private static func isHashedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, parts[0].allSatisfy(\.isHexDigit) else { return false }
        let number = parts[1].hasPrefix("r") ? parts[1].dropFirst() : parts[1]
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Exactly the given certificates as anchors, self-signed or not (used for certificate pinning).
    public static func anchors(_ certificates: [X509Certificate], origin: String) -> TrustStore {
        let store = TrustStore(origin: origin)
        try! store.add(certificates)  // adding parsed certificates fails only on allocation failure
        return store
    }

    private func add(_ certificates: [X509Certificate]) throws(CertificateParseError) {
        for certificate in certificates {
            // X509_STORE_add_cert takes its own reference; a duplicate is not an error in OpenSSL 3.
            let added = certificate.withUnsafeX509Pointer { X509_STORE_add_cert(pointer, $0) }
            guard added == 1 else {
                throw CertificateParseError(reason: OpenSSLError.drain("add trust anchor \(certificate.subject)").description)
            }
        }
    }
}
