internal import COpenSSL
import FileAccess
import Synchronization

/// Trust anchors OpenSSL looks up by subject, as it looks up a hashed directory, instead of holding every one decoded
/// from the start: a PEM bundle (`SSL_CERT_FILE`, Debian's ca-certificates.crt), or a platform's store of roots read
/// from a snapshot.
///
/// `X509_STORE_load_file` decodes each certificate whole, public key included: OpenSSL 3.0 builds a key decoder
/// for each, 1.2 M instructions, so the 139 roots of Debian's bundle cost about 30 ms before the first lookup (#12).
/// (That was before `BuiltinKeyMethods` took RSA and EC keys off the decoders; decoding every root whole still costs
/// what looking up the one a chain needs does not.) Here each anchor is an outline (`CertificateOutline`: its
/// subject decoded, nothing else), and a certificate is decoded when a chain asks for its subject.
///
/// Only a bundle of plain `CERTIFICATE` blocks is indexed. Anything else OpenSSL would read from the file (a
/// `TRUSTED CERTIFICATE` with trust settings, a CRL, an encrypted block) or a block whose subject cannot be read
/// leaves the file to `X509_STORE_load_file`, so such a bundle means what it always meant.
final class AnchorLookup: Sendable {
    private let outlines: [CertificateOutline]
    /// Anchors read from their files when a chain asks for their subject's hash (a snapshot with an index).
    private let indexed: [IndexedAnchor]
    /// The anchors decoded so far, in the order chains asked for them: every anchor a path search has met, since
    /// a lookup decodes every anchor of the subject asked for (`VerificationMemo` compares their dates).
    private let decoded = Mutex<[X509Certificate]>([])
    /// The subjects of the anchors asked for that OpenSSL could not decode whole: left out of the store, and named
    /// in every verification against it (`undecodedWarnings`), so that a root missing for that reason is not silent.
    private let undecoded = Mutex<[String]>([])
    /// Why each indexed anchor asked for could not be read.
    private let unreadable = Mutex<[String]>([])

    private init(outlines: [CertificateOutline], indexed: [IndexedAnchor]) {
        self.outlines = outlines
        self.indexed = indexed
    }

    var loaded: [X509Certificate] { decoded.withLock { $0 } }

    /// What a verification against this store says of the anchors it had to leave out, in `origin`'s words.
    func undecodedWarnings(origin: String) -> [String] {
        undecoded.withLock { $0 }.map { subject in
            "\(origin): the certificate \(subject) cannot be decoded: it is left out of the store; replace or remove "
                + "that entry"
        } + unreadable.withLock { $0 }.map { reason in "\(origin): \(reason) (the root is left out of the store)" }
    }

    /// Adds `outlines` and `indexed` to `store` as anchors looked up when asked for.
    static func add(_ outlines: [CertificateOutline], indexed: [IndexedAnchor] = [], to store: OpaquePointer)
        -> AnchorLookup {
        let lookup = AnchorLookup(outlines: outlines, indexed: indexed)
        guard let added = X509_STORE_add_lookup(store, method) else {
            fatalError("X509_STORE_add_lookup: \(OpenSSLError.drain("add a lookup"))")
        }
        // The lookup owns a reference from here; the method's `free` releases it with the store.
        X509_LOOKUP_set_method_data(added, Unmanaged.passRetained(lookup).toOpaque())
        return lookup
    }

    /// Adds the bundle at `path` to `store`: as a lookup when it can be indexed, else loaded whole by OpenSSL.
    static func addBundle(_ path: String, to store: OpaquePointer) {
        guard let bytes = try? FileInput.read(path), let outlines = CertificateOutline.pem(bytes) else {
            // A missing or unreadable file leaves the store as OpenSSL leaves it: without the file's anchors.
            _ = PathBytes.withCString(path) { X509_STORE_load_file(store, $0) }
            return
        }
        _ = add(outlines, to: store)
    }

    /// The lookup OpenSSL calls for a subject it has not cached: every anchor with that subject is decoded and
    /// added to the store, and one of them handed back, as `X509_LOOKUP_store` does.
    // nonisolated(unsafe): the method is written once, by this initializer, and only read by OpenSSL afterwards.
    nonisolated(unsafe) private static let method: OpaquePointer = {
        guard let method = X509_LOOKUP_meth_new("pinctl anchors by subject") else {
            fatalError("X509_LOOKUP_meth_new: out of memory")
        }
        _ = X509_LOOKUP_meth_set_get_by_subject(method) { lookup, type, name, result in
            guard let lookup, let name, let result, type == X509_LU_X509, let data = X509_LOOKUP_get_method_data(lookup),
                  let store = X509_LOOKUP_get_store(lookup) else { return 0 }
            let anchors = Unmanaged<AnchorLookup>.fromOpaque(data).takeUnretainedValue()
            var candidates = anchors.outlines
            if !anchors.indexed.isEmpty {
                let hash = UInt(X509_NAME_hash_ex(name, nil, nil, nil))
                for anchor in anchors.indexed where anchor.subjectNameHash == hash {
                    switch anchor.outline {
                    case .success(let outline): candidates.append(outline)
                    case .failure(let failure):
                        anchors.unreadable.withLock { if !$0.contains(failure.reason) { $0.append(failure.reason) } }
                    }
                }
            }
            for outline in candidates where X509_NAME_cmp(outline.subject, name) == 0 {
                // One OpenSSL cannot decode whole is left out, as X509_STORE_load_file leaves it out, and named.
                guard let certificate = outline.certificate else {
                    let subject = X509Certificate.format(outline.subject)
                    anchors.undecoded.withLock { if !$0.contains(subject) { $0.append(subject) } }
                    continue
                }
                // X509_STORE_add_cert takes its own reference; one the store holds already is not added twice.
                if certificate.withUnsafeX509Pointer({ X509_STORE_add_cert(store, $0) }) == 1 {
                    anchors.decoded.withLock { $0.append(certificate) }
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
            Unmanaged<AnchorLookup>.fromOpaque(data).release()
        }
        return method
    }()
}
