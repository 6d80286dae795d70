internal import COpenSSL
import FileAccess
import FoundationEssentials
import TextSyntax

/// A set of trust anchors, owning its `X509_STORE*`, and knowing where each came from.
// @unchecked Sendable: OpenSSL locks an X509_STORE internally; after construction pinctl only verifies against it.
public final class TrustStore: @unchecked Sendable {
    let pointer: OpaquePointer
    /// Where the anchors came from, for messages: "the system trust store", "the CA file root.pem".
    public let origin: String
    /// The anchors given one by one (CA files, pinned certificates, resources); a hashed directory's are looked up
    /// by OpenSSL as needed and are not listed.
    public let certificates: [X509Certificate]
    /// Hashed directories and bundle files handed to OpenSSL, and anchors decoded when a chain asks for them (a
    /// platform's roots): what `union` must add again.
    private let directories: [String]
    private let files: [String]
    private let outlines: [CertificateOutline]
    private let indexed: [IndexedAnchor]
    /// The lookup of `outlines` and `indexed`, which knows which of them a path search has decoded.
    private let lookup: AnchorLookup?

    /// What a store holds, when all of it is known: a SHA-256 over its anchors' fingerprints in order (the listed
    /// ones, then the outlined ones), and the name messages give it.
    package struct Contents: Hashable {
        let origin: String
        let anchors: [UInt8]

        /// The same in words, equal exactly when the contents are: the origin's length first, so that no origin can
        /// read as another's with more after it.
        package var key: String { "\(Hex.lower(anchors)) \(origin.utf8.count):\(origin)" }
    }

    /// Nil when a hashed directory or a bundle read lazily holds anchors: what they hold is not known up front.
    package let contents: Contents?

    private init(origin: String, certificates: [X509Certificate], directories: [String], files: [String],
                 outlines: [CertificateOutline] = [], indexed: [IndexedAnchor] = []) {
        BuiltinKeyMethods.install()
        guard let store = X509_STORE_new() else { fatalError("X509_STORE_new: out of memory") }
        pointer = store
        self.origin = origin
        self.certificates = certificates
        self.directories = directories
        self.files = files
        self.outlines = outlines
        self.indexed = indexed
        // An indexed anchor is known by its snapshot id until it is read: the ids have a digest of their own, so
        // that no run of fingerprints can read as ids.
        let fingerprints = Digest.sha256(certificates.flatMap(\.sha256Fingerprint)
            + outlines.flatMap(\.sha256Fingerprint))
        contents = directories.isEmpty && files.isEmpty
            ? Contents(origin: origin, anchors: indexed.isEmpty ? fingerprints
                : Digest.sha256(fingerprints + Digest.sha256(indexed.flatMap { $0.identity + [0x20] })))
            : nil
        for directory in directories {
            _ = PathBytes.withCString(directory) { X509_STORE_load_path(store, $0) }
        }
        for file in files {
            AnchorLookup.addBundle(file, to: store)
        }
        lookup = outlines.isEmpty && indexed.isEmpty ? nil : AnchorLookup.add(outlines, indexed: indexed, to: store)
        for certificate in certificates {
            // X509_STORE_add_cert takes its own reference; a duplicate is not an error in OpenSSL 3, and adding a
            // parsed certificate fails only when memory is exhausted.
            guard certificate.withUnsafeX509Pointer({ X509_STORE_add_cert(store, $0) }) == 1 else {
                fatalError("X509_STORE_add_cert: \(OpenSSLError.drain("add trust anchor"))")
            }
        }
        // A missing default location is not an error: the store is then empty and every chain fails to verify.
        OpenSSLError.clearQueue()
    }

    deinit { X509_STORE_free(pointer) }

    /// OpenSSL's default verify paths: `SSL_CERT_DIR` or the default hashed directory, looked up lazily, and
    /// `SSL_CERT_FILE` or the default bundle when no such directory exists.
    ///
    /// The hashed directory is preferred because parsing the whole bundle up front costs tens of milliseconds,
    /// most of a one-shot run; a directory lookup reads only the certificates a chain needs.
    public static func system() -> TrustStore {
        let directory = PathBytes.environment(String(cString: X509_get_default_cert_dir_env()))
            ?? String(cString: X509_get_default_cert_dir())
        let file = PathBytes.environment(String(cString: X509_get_default_cert_file_env()))
        let hasDirectory = (try? FileSystem.kind(of: directory)) == .directory
        var files: [String] = []
        // Only a regular file is handed to OpenSSL, which would block on a named pipe.
        if let file {
            if (try? FileSystem.kind(of: file)) == .regular { files.append(file) }
        } else if !hasDirectory {
            files.append(String(cString: X509_get_default_cert_file()))
        }
        return TrustStore(origin: "the system trust store", certificates: [],
                          directories: hasDirectory ? [directory] : [], files: files)
    }

    /// Anchors from CA files (PEM bundles or DER) and hashed CA directories, replacing the system store.
    public static func caFiles(_ files: [String], directories: [String]) throws(CertificateParseError) -> TrustStore {
        var certificates: [X509Certificate] = []
        for file in files {
            certificates += try CertificateParser.certificates(atPath: file)
        }
        for directory in directories {
            try checkHashedDirectory(directory)
        }
        let names = files.map { "the CA file \($0)" } + directories.map { "the CA directory \($0)" }
        return TrustStore(origin: names.joined(separator: ", "), certificates: certificates,
                          directories: directories, files: [])
    }

    /// Exactly the given certificates as anchors, self-signed or not (pinned certificates, bundled resources).
    public static func anchors(_ certificates: [X509Certificate], origin: String) -> TrustStore {
        TrustStore(origin: origin, certificates: certificates, directories: [], files: [])
    }

    /// Exactly the outlined certificates as anchors, each decoded only when a chain asks for its subject (a
    /// platform's store, of which a chain reaches one or two roots): what the store holds is known, as for
    /// `anchors`, though only those decoded so far are `metAnchors`.
    public static func outlined(_ outlines: [CertificateOutline], indexed: [IndexedAnchor] = [], origin: String)
        -> TrustStore {
        TrustStore(origin: origin, certificates: [], directories: [], files: [], outlines: outlines, indexed: indexed)
    }

    /// The listed anchors and those of the outlined ones a path search has decoded: every anchor a verification
    /// against this store can have met, when the store is all known (`contents`).
    var metAnchors: [X509Certificate] { certificates + (lookup?.loaded ?? []) }

    /// The outlined anchors a path search asked for that could not be decoded, each said in a sentence.
    var undecodedAnchorWarnings: [String] { lookup?.undecodedWarnings(origin: origin) ?? [] }

    /// Every anchor of every store in one: for a policy that trusts several sources at once (Android's
    /// `<trust-anchors>` with `system` and `@raw/…`).
    public static func union(_ stores: [TrustStore], origin: String) -> TrustStore {
        TrustStore(origin: origin, certificates: stores.flatMap(\.certificates),
                   directories: stores.flatMap(\.directories), files: stores.flatMap(\.files),
                   outlines: stores.flatMap(\.outlines), indexed: stores.flatMap(\.indexed))
    }

    /// Whether `certificate` is one of this store's anchors, compared by subject and public key (the way OpenSSL
    /// and Android look anchors up): listed, or found in a hashed directory or bundle.
    public func contains(_ certificate: X509Certificate) -> Bool {
        if certificates.contains(where: { $0.subject == certificate.subject && $0.spkiDER == certificate.spkiDER }) {
            return true
        }
        guard !directories.isEmpty || !files.isEmpty || !outlines.isEmpty || !indexed.isEmpty else { return false }
        guard let context = X509_STORE_CTX_new() else { fatalError("X509_STORE_CTX_new: out of memory") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, pointer, nil, nil) == 1 else {
            OpenSSLError.clearQueue()
            return false
        }
        defer { OpenSSLError.clearQueue() }
        // get1: the stack and its certificates are ours to free.
        let found = certificate.withUnsafeX509Pointer { X509_STORE_CTX_get1_certs(context, X509_get_subject_name($0)) }
        guard let found else { return false }
        defer { COpenSSLShim_sk_X509_pop_free(found) }
        for index in 0..<COpenSSLShim_sk_X509_num(found) {
            guard let candidate = COpenSSLShim_sk_X509_value(found, index),
                  let key = X509_get_X509_PUBKEY(candidate) else { continue }
            var der: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509_PUBKEY(key, &der)
            guard length > 0, let der else { continue }
            defer { COpenSSLShim_OPENSSL_free(der) }
            if Array(UnsafeBufferPointer(start: der, count: Int(length))) == certificate.spkiDER { return true }
        }
        return false
    }

    /// A `--ca-path` must be a directory, and every hashed name in it (`1a2b3c4d.0`) a regular file: OpenSSL opens
    /// them lazily, while verifying, and would block there forever on a named pipe.
    private static func checkHashedDirectory(_ directory: String) throws(CertificateParseError) {
        let names: [String]
        do throws(FileSystemError) {
            guard try FileSystem.kind(of: directory) == .directory else {
                throw FileSystemError(reason: "is not a directory of hashed certificates (see `openssl rehash`)")
            }
            names = try FileSystem.entries(ofDirectory: directory)
        } catch {
            throw CertificateParseError(path: directory, reason: error.reason)
        }
        for name in names where isHashedName(name) {
            let entry = Path.join(directory, name)
            guard let kind = try? FileSystem.kind(of: entry), kind != .regular else { continue }
            throw CertificateParseError(path: entry, reason: "is \(kind.name), not a regular file (in a hashed CA directory)")
        }
    }

    /// `openssl rehash` names: eight hex digits, a dot, an optional `r` (CRLs) and a sequence number.
    private static func isHashedName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 8, parts[0].allSatisfy(\.isHexDigit) else { return false }
        let number = parts[1].hasPrefix("r") ? parts[1].dropFirst() : parts[1]
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
