import Synchronization

/// An anchor known by the hash of its subject before its file is read: a root of a snapshot directory whose index
/// (`roots.index`) gives each root's name hashes. A store of such anchors reads a root when a path search asks for
/// its subject, so a run over every platform version reads the few roots a chain can reach, not all 368 (#33).
///
/// A root that cannot be read (its file gone, or holding another certificate than its name records) is an input
/// error of a run whose chain can reach it: the checking core reads every such root before judging (`unreadable`).
/// Should a lookup still meet one, it is left out of the store and named in a warning of every verification against
/// it: it can only fail a chain that needed it, never pass one.
public final class IndexedAnchor: Sendable {
    /// OpenSSL's hash of the subject (`X509_NAME_hash_ex`), as the index gives it.
    public let subjectNameHash: UInt
    /// What tells this anchor from every other in a store's `Contents`: the snapshot's id of the root.
    let identity: [UInt8]
    private let read: @Sendable () -> Result<CertificateOutline, Unreadable>
    private let outcome = Mutex<Result<CertificateOutline, Unreadable>?>(nil)

    /// Why a root could not be read, in a sentence naming its file.
    public struct Unreadable: Error, Sendable {
        public let reason: String

        public init(_ reason: String) { self.reason = reason }
    }

    /// An anchor with subject hash `subjectNameHash`, known in stores as `identity`, which `read` reads (once, when
    /// first asked for).
    public init(subjectNameHash: UInt, identity: String,
                read: @escaping @Sendable () -> Result<CertificateOutline, Unreadable>) {
        self.subjectNameHash = subjectNameHash
        self.identity = Array(identity.utf8)
        self.read = read
    }

    /// Why the root cannot be read (naming its file), reading it now if it was not yet; nil when it reads.
    public var unreadable: String? {
        guard case .failure(let failure) = outline else { return nil }
        return failure.reason
    }

    /// The root, read on first use; the same answer after that.
    var outline: Result<CertificateOutline, Unreadable> {
        outcome.withLock { outcome in
            if let known = outcome { return known }
            var read = read()
            // An index that gives a root another subject would hide it from the names that reach it.
            if case .success(let outline) = read, outline.subjectNameHash != subjectNameHash {
                read = .failure(Unreadable("the index gives the root \(String(decoding: identity, as: UTF8.self)) "
                    + "another subject hash than its certificate has: rebuild the index (scripts/index-stores.sh)"))
            }
            outcome = read
            return read
        }
    }
}
