import FileAccess
import OpenSSLWrapper
import Synchronization
import TextSyntax

/// The snapshot directory `scripts/build-stores.sh` writes (docs/platform-stores.md), read only as far as a command
/// asks: the membership file of a platform when that platform is named, a root's certificate when it is shown.
public struct StoreSnapshots: Sendable {
    /// The directory, as given.
    public let directory: String
    /// Where the directory came from: `--stores`, `PINCTL_STORES` or the installed copy.
    public let location: StoreLocation
    /// The membership files read so far, by platform: a policy file's apps each name versions, and each is looked up
    /// in the same few files; and the CT log list. Kept by this value only, so a directory opened again (serve's
    /// reload) is read again.
    private let read = ReadMemberships()

    /// The first line of `FORMAT`: a directory without it is not a snapshot directory.
    static let format = "pinctl-stores 1"

    /// Opens the directory `location` found; none found is an error naming every place looked.
    public init(_ location: StoreLocation) throws(StoreSnapshotError) {
        guard let directory = location.directory else { throw .noDirectory(looked: location.looked) }
        guard !directory.isEmpty else { throw StoreSnapshotError("--stores names no directory (an empty argument)") }
        self.directory = directory
        self.location = location
        let formatPath = Path.join(directory, "FORMAT")
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(formatPath)
        } catch {
            throw StoreSnapshotError("\(formatPath): \(error.reason): \(directory) \(location.origin) is not a store "
                + "snapshot directory; \(StoreSnapshotError.howToBuild)")
        }
        // Compared, never quoted: the directory can be any, and so can its FORMAT.
        guard bytes.split(separator: UInt8(ascii: "\n")).first.map(Array.init) == Array(Self.format.utf8) else {
            throw StoreSnapshotError("\(formatPath): expected \(Self.format.debugDescription) (a snapshot of another "
                + "format or another tool); rebuild it with scripts/build-stores.sh")
        }
    }

    /// The date of the newest snapshot of any platform (`YYYY-MM-DD`); nil when there are none.
    public func newestDate() throws(StoreSnapshotError) -> String? {
        var newest: String?
        for platform in platforms() {
            for snapshot in try snapshots(of: platform) where newest.map({ snapshot.date > $0 }) ?? true {
                newest = snapshot.date
            }
        }
        return newest
    }

    /// The platforms the directory has snapshots of, in `PlatformSelector.snapshotPlatforms` order.
    public func platforms() -> [String] {
        PlatformSelector.snapshotPlatforms.filter { (try? FileSystem.kind(of: membershipPath($0))) == .regular }
    }

    /// Every version of `platform` the directory records, oldest first.
    public func snapshots(of platform: String) throws(StoreSnapshotError) -> [StoreSnapshot] {
        try membership(of: platform).versions
    }

    /// Every root id any version of `platform` lists.
    package func allRootIDs(of platform: String) throws(StoreSnapshotError) -> Set<String> {
        try membership(of: platform).allRootIDs
    }

    private func membership(of platform: String) throws(StoreSnapshotError)
        -> (versions: [StoreSnapshot], allRootIDs: Set<String>) {
        if let known = read.snapshots.withLock({ $0[platform] }) { return known }
        let membership = try readSnapshots(of: platform)
        read.snapshots.withLock { $0[platform] = membership }
        return membership
    }

    private func readSnapshots(of platform: String) throws(StoreSnapshotError)
        -> (versions: [StoreSnapshot], allRootIDs: Set<String>) {
        let path = membershipPath(platform)
        guard (try? FileSystem.kind(of: path)) != nil else {
            let present = platforms()
            throw StoreSnapshotError("\(directory) \(location.origin) has no snapshot of \(platform) (it has "
                + "\(present.isEmpty ? "none" : present.joined(separator: ", ")))")
        }
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw StoreSnapshotError("\(path): \(error.reason)")
        }
        return try StoreSnapshotFile.read(bytes, platform: platform, path: path)
    }

    /// The versions `selector` names; a version without a snapshot (either end of a range) is an error naming those
    /// there are.
    public func select(_ selector: PlatformSelector) throws(StoreSnapshotError) -> [StoreSnapshot] {
        let all = try snapshots(of: selector.platform)
        guard let range = selector.versions else { return all }
        if selector.openEnded {
            let chosen = all.filter { range.contains($0.version) }
            guard chosen.isEmpty else { return chosen }
            throw StoreSnapshotError("\(selector.platform) has no snapshot of version \(range.lowerBound) or later (in "
                + "\(selector.description.debugDescription)); the snapshots in \(directory) have "
                + all.map(\.version.description).joined(separator: ", "))
        }
        for end in [range.lowerBound, range.upperBound] where !all.contains(where: { $0.version == end }) {
            throw StoreSnapshotError("\(selector.platform) has no snapshot of version \(end) (in "
                + "\(selector.description.debugDescription)); the snapshots in \(directory) have "
                + all.map(\.version.description).joined(separator: ", "))
        }
        return all.filter { range.contains($0.version) }
    }

    /// The root certificate recorded under `id`, which must be the certificate's own: the SHA-256 of its key in
    /// hex, and for the `-` form the first 8 hex digits of its own SHA-256 after it (docs/platform-stores.md). A
    /// root file swapped for another certificate is refused, naming the file and what its name says.
    public func root(_ id: String) throws(StoreSnapshotError) -> X509Certificate {
        // An id is hex only, so it names a file inside roots/ and nowhere else.
        guard StoreSnapshotFile.isRootID(id) else { throw StoreSnapshotError("\(id.debugDescription): not a root id") }
        let path = Path.join(Path.join(directory, "roots"), id + ".pem")
        let certificates: [X509Certificate]
        do {
            certificates = try CertificateParser.certificates(atPath: path)
        } catch {
            throw StoreSnapshotError("\(error.description) (a root a membership file names)")
        }
        guard certificates.count == 1, let certificate = certificates.first else {
            throw StoreSnapshotError("\(path): expected one certificate, found \(certificates.count)")
        }
        // A store's roots are anchors by membership alone: trust settings a file carried (a reject of serverAuth)
        // would be dropped with the rest of OpenSSL's auxiliary data when the root is outlined, and the root trusted
        // for what the file says it must not be. scripts/build-stores.sh writes plain certificates.
        guard !certificate.carriesTrustSettings else {
            throw StoreSnapshotError("\(path): a TRUSTED CERTIFICATE, with OpenSSL trust settings: a snapshot's root "
                + "is a plain certificate, as scripts/build-stores.sh writes it; the snapshot was changed after it was "
                + "written: rebuild it")
        }
        try Self.check(id, path: path, spkiSHA256: certificate.spkiSHA256, sha256: certificate.sha256Fingerprint)
        return certificate
    }

    /// The root recorded under `id` as `root(_:)` reads it, checked the same way, but only outlined: a platform's
    /// store decodes a root whole when a chain asks for its subject (`TrustStore.outlined`). A file the outline
    /// cannot read (not one plain PEM certificate) is read by `root(_:)`, so it is refused in the same words.
    public func rootOutline(_ id: String) throws(StoreSnapshotError) -> CertificateOutline {
        guard StoreSnapshotFile.isRootID(id) else { throw StoreSnapshotError("\(id.debugDescription): not a root id") }
        let path = Path.join(Path.join(directory, "roots"), id + ".pem")
        guard let bytes = try? FileInput.read(path), let outlines = CertificateOutline.pem(bytes), outlines.count == 1
        else {
            let root = try root(id)
            guard let outline = CertificateOutline(der: root.derBytes) else {
                throw StoreSnapshotError("\(path): the certificate's fields cannot be read in order")
            }
            return outline
        }
        try Self.check(id, path: path, spkiSHA256: outlines[0].spkiSHA256, sha256: outlines[0].sha256Fingerprint)
        return outlines[0]
    }

    /// The directory's index of root names (`roots.index`), or nil when it has none; one that cannot be read is an
    /// error at its line.
    package func rootIndex() throws(StoreSnapshotError) -> StoreRootIndex? {
        let path = Path.join(directory, StoreRootIndex.fileName)
        guard (try? FileSystem.kind(of: path)) != nil else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw StoreSnapshotError("\(path): \(error.reason)")
        }
        return try StoreRootIndex(bytes, path: path)
    }

    /// The root recorded under `id`, whose subject hash the index gives, read (as `rootOutline`) when a chain asks
    /// for that subject; a root that cannot be read then is left out, for the reason `rootOutline` gives.
    public func indexedRoot(_ id: String, subjectNameHash: UInt) -> IndexedAnchor {
        IndexedAnchor(subjectNameHash: subjectNameHash, identity: id) {
            do throws(StoreSnapshotError) {
                return .success(try rootOutline(id))
            } catch {
                return .failure(IndexedAnchor.Unreadable(error.description))
            }
        }
    }

    /// Whether the certificate at `path` is the one `id` records (its key's SHA-256, and its own SHA-256's first 8
    /// hex digits in the `-` form).
    private static func check(_ id: String, path: String, spkiSHA256: [UInt8], sha256: [UInt8])
        throws(StoreSnapshotError)
    {
        // A root id is 64 hex digits, and for the `-` form `-` and 8 more (`StoreSnapshotFile.isRootID`).
        let suffixed = id.utf8.count > 64
        let key = Hex.lower(spkiSHA256)
        let own = Hex.lower(sha256.prefix(4))
        guard id.utf8.prefix(64).elementsEqual(key.utf8), !suffixed || id.utf8.suffix(8).elementsEqual(own.utf8) else {
            let found = suffixed ? "key SHA-256 \(key) and certificate SHA-256 \(own)…" : "key SHA-256 \(key)"
            throw StoreSnapshotError("\(path): holds a certificate of \(found), not the one its name records: the "
                + "snapshot was changed after scripts/build-stores.sh wrote it; rebuild it")
        }
    }

    /// Apple's CT log list (`apple-ct-logs.cnf`), which the Apple versions that require Certificate Transparency
    /// need; a directory without one cannot judge them, and says how to get one. Read once, under a lock: a caller
    /// on another thread waits for a read under way (`SnapshotPrefetch`) rather than reading it again; a read that
    /// fails is not kept, so each caller gets its error.
    public func appleCTLogs() throws(StoreSnapshotError) -> CTLogList {
        try read.ctLogs.withLock { (known: inout CTLogList?) throws(StoreSnapshotError) -> CTLogList in
            if let known { return known }
            let list = try readAppleCTLogs()
            known = list
            return list
        }
    }

    /// Whether the directory has an Apple CT log list at all (readable or not): a snapshot of Android alone has none.
    public var hasAppleCTLogs: Bool { (try? FileSystem.kind(of: appleCTLogsPath)) != nil }

    private var appleCTLogsPath: String { Path.join(directory, "apple-ct-logs.cnf") }

    private func readAppleCTLogs() throws(StoreSnapshotError) -> CTLogList {
        let path = appleCTLogsPath
        guard hasAppleCTLogs else {
            throw StoreSnapshotError("\(directory) has no Apple CT log list (apple-ct-logs.cnf), which judging on iOS "
                + "12 and macOS 10.14 or later needs (Apple requires Certificate Transparency there); rebuild the "
                + "snapshots with scripts/build-stores.sh from a security_certificates clone")
        }
        do {
            return try CTLogList(path: path)
        } catch {
            throw StoreSnapshotError(error.description)
        }
    }

    private func membershipPath(_ platform: String) -> String { Path.join(directory, platform + ".txt") }
}

/// The membership files a `StoreSnapshots` has read, by platform, and its CT log list once read.
private final class ReadMemberships: Sendable {
    let snapshots = Mutex<[String: (versions: [StoreSnapshot], allRootIDs: Set<String>)]>([:])
    let ctLogs = Mutex<CTLogList?>(nil)
}
