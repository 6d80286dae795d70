import OpenSSLWrapper
import PolicyEngine

/// One platform version a chain is judged on (DESIGN §12): its snapshot, and its roots as the store that stands
/// where the system store stands without a platform.
public struct PlatformStore: Sendable {
    public let snapshot: StoreSnapshot
    /// Apple's CT log list, for a version that requires Certificate Transparency (`requiresCertificateTransparency`).
    public let certificateTransparency: CTLogList?
    /// Every root read for the run, by the name OpenSSL looks issuers up by: what a path search can reach.
    let rootNames: RootNameIndex
    /// The roots of every version of the run, outlined or indexed.
    let snapshotRoots: SnapshotRoots
    /// Built when a chain is first judged on this version, not before: most versions share their verification with
    /// another (`VersionClass`). Its roots are outlines, each decoded when a path search asks for its subject, or,
    /// with the snapshot's index, read then: a chain reaches one or two of the 150.
    private let store: BuiltOnFirstUse<TrustStore>

    init(snapshot: StoreSnapshot, roots: SnapshotRoots, certificateTransparency: CTLogList?,
         rootNames: RootNameIndex) {
        self.snapshot = snapshot
        self.certificateTransparency = certificateTransparency
        self.rootNames = rootNames
        snapshotRoots = roots
        // One origin for every version of a platform, so grouped versions say the same.
        let origin = "the \(snapshot.platform) store"
        store = BuiltOnFirstUse {
            let (outlines, indexed) = roots.anchors(of: snapshot)
            return .outlined(outlines, indexed: indexed, origin: origin)
        }
    }

    /// The snapshot's roots, as anchors.
    public var roots: TrustStore { store.value }

    /// Why a root a path from `presented` can reach cannot be read, naming its file; nil when all can. Reached
    /// through the roots of every version of the run (its stores share one index of them), which can take in a root
    /// no one version's path search asks for: never fewer, and without an index every root is read anyway.
    func unreadableRoot(reachableFrom presented: [X509Certificate]) -> String? {
        snapshotRoots.unreadable(rootNames.reachable(from: presented))
    }

    /// Apple requires CT "for all TLS certificates issued after October 15, 2018" from iOS 12.1.1 and macOS 10.14.2
    /// (HT205280). A snapshot stands for a whole OS major, so ios@12 and macos@10.14 require it too: their first
    /// releases did not, which can refuse what such a device accepts, never the reverse.
    static func requiresCertificateTransparency(_ snapshot: StoreSnapshot) -> Bool {
        (snapshot.platform == "ios" && snapshot.version >= Firsts.iOS12)
            || (snapshot.platform == "macos" && snapshot.version >= Firsts.macOS10_14)
    }

    /// The versions the rules above start at, read once: every version of every chain asks.
    private enum Firsts {
        static let iOS12 = PlatformVersion("12")!
        static let iOS13 = PlatformVersion("13")!
        static let macOS10_14 = PlatformVersion("10.14")!
        static let macOS10_15 = PlatformVersion("10.15")!
    }

    /// Apple's server trust rules apply from iOS 13 and macOS 10.15, the releases HT210176 names.
    var appliesAppleServerPolicy: Bool {
        (snapshot.platform == "ios" && snapshot.version >= Firsts.iOS13)
            || (snapshot.platform == "macos" && snapshot.version >= Firsts.macOS10_15)
    }

    /// Android's PKIX validation (conscrypt's TrustManagerImpl hands the anchor to `PKIXParameters` as a
    /// `TrustAnchor`) never reads a trust anchor's dates, on every API level; Apple's and Mozilla's verifiers do.
    var checksAnchorValidity: Bool { snapshot.platform != "android" }

    /// The version's verifier rules (DESIGN §12), with `userRoots` as the roots its user added.
    ///
    /// pinctl's own rules (SAN-only names, RSA 2048, no SHA-1 below the anchor) are stricter than Android's
    /// ChainStrengthAnalyzer (RSA 1024; SHA-1 refused only since conscrypt's change of April 2018): on Android they
    /// can refuse what a device accepts, never the other way.
    public func rules(userRoots: TrustStore?) -> PlatformRules {
        PlatformRules(appliesAppleServerPolicy: appliesAppleServerPolicy, checksAnchorValidity: checksAnchorValidity,
                      systemRoots: roots, userRoots: userRoots, certificateTransparency: certificateTransparency)
    }
}

/// The platform versions `--platform` names (repeatable, `android@24-36`), read from the snapshot directory
/// `StoreLocation` finds. Without a platform nothing is read and nothing changes.
public struct PlatformSettings: Sendable {
    /// The selectors as given, `NAME[@VERSIONS]`.
    public var selectors: [String]
    /// Where the snapshot directory is (`--stores`, else `PINCTL_STORES`, else the installed copy).
    public var storesDirectory: StoreLocation
    /// The Android API level apps target where the policy file gives none (`--target-sdk`); nil: 24 or later.
    public var targetSdk: Int?
    /// What the process began reading when it started (`StoreReadAhead`), used when it read `storesDirectory`.
    public var readAhead: StoreReadAhead?

    public init(selectors: [String] = [], storesDirectory: StoreLocation, targetSdk: Int? = nil,
                readAhead: StoreReadAhead? = nil) {
        self.selectors = selectors
        self.storesDirectory = storesDirectory
        self.targetSdk = targetSdk
        self.readAhead = readAhead
    }

    /// Whether the selectors name `system` alone (OpenSSL's default store): the run judges as without platforms,
    /// whatever a policy file's `platforms:` name.
    public var systemOnly: Bool { !selectors.isEmpty && selectors.allSatisfy(Self.namesSystem) }

    private static func namesSystem(_ selector: String) -> Bool {
        (try? PlatformSelector(parsing: selector))?.isSystem == true
    }

    /// The selectors that name snapshots: none when `system` is named. `system` beside a snapshot platform is an
    /// error: a run judges either as without platforms or on snapshots' versions, and the results of both in one
    /// run would need a `system` result of each target beside the versions' (not built yet).
    static func snapshotSelectors(_ selectors: [String]) throws(StoreSnapshotError) -> [String] {
        guard selectors.contains(where: namesSystem) else { return selectors }
        let others = selectors.filter { !namesSystem($0) }
        guard others.isEmpty else {
            throw StoreSnapshotError("system (OpenSSL's default store, as without a platform) cannot be judged beside "
                + "\(others.joined(separator: ", ")) in one run: judge it in a run of its own")
        }
        return []
    }

    /// `snapshots`, else the directory as read ahead, else the directory opened now.
    private func open(_ snapshots: StoreSnapshots?) throws(StoreSnapshotError) -> StoreSnapshots {
        if let snapshots { return snapshots }
        if let readAhead = readAhead?.snapshots(for: storesDirectory) { return readAhead }
        return try StoreSnapshots(storesDirectory)
    }

    /// The names (`android@24`) of the versions the selectors name, without reading a root; from `snapshots` when
    /// given (a directory opened once for many selectors), else from the directory opened now.
    public func versionNames(in snapshots: StoreSnapshots? = nil) throws(InputError) -> Set<String> {
        do throws(StoreSnapshotError) {
            let selectors = try Self.snapshotSelectors(selectors)
            guard !selectors.isEmpty else { return [] }
            let snapshots = try open(snapshots)
            var names: Set<String> = []
            for text in selectors {
                names.formUnion(try snapshots.select(try PlatformSelector(parsing: text)).map(\.name))
            }
            return names
        } catch {
            throw InputError("platforms: \(error.description)")
        }
    }

    /// Every version the selectors name, in the order named and oldest first within each, a version named twice
    /// once (from `snapshots`, as `versionNames`). A selector, version or snapshot directory that cannot be used is
    /// an input error naming what there is.
    public func stores(in snapshots: StoreSnapshots? = nil) throws(InputError) -> [PlatformStore] {
        guard !selectors.isEmpty else { return [] }
        do throws(StoreSnapshotError) {
            let selectors = try Self.snapshotSelectors(selectors)
            guard !selectors.isEmpty else { return [] }
            let given = snapshots
            let ahead = given == nil ? readAhead?.snapshots(for: storesDirectory) : nil
            let snapshots = try open(given)
            // Versions share most roots: each is read once, as an outline, or not at all until a chain reaches it
            // when the directory's index gives its names; the CT log list is read once. A version's list of roots
            // is made only when a chain is judged on it: most versions share their class's verification.
            // A caller that gives the directory has read ahead already (`PlatformJudges.named`), and so has a
            // process that started reading what its command line names (`StoreReadAhead`). No read outlives this
            // call: the command goes on with no thread of its own but the checks it starts.
            let prefetch = given == nil && ahead == nil ? SnapshotPrefetch(selectors, in: snapshots) : nil
            defer {
                prefetch?.join()
                readAhead?.join()
            }
            prefetch?.readMemberships()
            if ahead != nil { readAhead?.readMemberships() }
            var chosen: [StoreSnapshot] = []
            for text in selectors {
                let selector = try PlatformSelector(parsing: text)
                for snapshot in try snapshots.select(selector)
                where !chosen.contains(where: { $0.name == snapshot.name }) {
                    chosen.append(snapshot)
                }
            }
            var ids: Set<String> = []
            for platform in Set(chosen.map(\.platform)) {
                let versions = chosen.filter { $0.platform == platform }
                // Every version of a platform: the union its membership file gave, not each version's ids again.
                if versions.count == (try snapshots.snapshots(of: platform)).count {
                    ids.formUnion(try snapshots.allRootIDs(of: platform))
                } else {
                    for snapshot in versions { ids.formUnion(snapshot.rootIDs) }
                }
            }
            let index = try snapshots.rootIndex()
            let rootNames = RootNameIndex()
            var outlines: [String: CertificateOutline] = [:]
            var indexed: [String: IndexedAnchor] = [:]
            let ordered = ids.sorted()
            let unindexed = ordered.filter { index?.names[$0] == nil }
            let read = Dictionary(uniqueKeysWithValues: zip(unindexed,
                                                            SnapshotPrefetch.outlines(unindexed, in: snapshots)))
            for id in ordered {
                if let names = index?.names[id] {
                    indexed[id] = snapshots.indexedRoot(id, subjectNameHash: names.subject)
                    rootNames.add(id: id, subject: names.subject, issuer: names.issuer)
                } else if let result = read[id] {
                    // The first root in id order that cannot be read is the error, whichever thread read it.
                    let root = try result.get()
                    outlines[id] = root
                    rootNames.add(id: id, subject: root.subjectNameHash, issuer: root.issuerNameHash)
                }
            }
            let roots = SnapshotRoots(ordered: ordered, outlines: outlines, indexed: indexed)
            var ctLogs: CTLogList?
            var stores: [PlatformStore] = []
            for snapshot in chosen {
                let requiresCT = PlatformStore.requiresCertificateTransparency(snapshot)
                if requiresCT, ctLogs == nil { ctLogs = try snapshots.appleCTLogs() }
                stores.append(PlatformStore(snapshot: snapshot, roots: roots,
                                            certificateTransparency: requiresCT ? ctLogs : nil, rootNames: rootNames))
            }
            return stores
        } catch {
            throw InputError("--platform: \(error.description)")
        }
    }
}

/// The roots of every version a run names, each read once (`PlatformSettings.stores`): as an outline, or as an
/// anchor the snapshot's index names and that is read when a chain reaches it.
final class SnapshotRoots: Sendable {
    /// Each root by id: its place among the ids sorted (each version's anchors are in that order, whatever order its
    /// file lists them in), and the root, outlined or indexed. One lookup a root of a version: a version class's
    /// store is made of every root of its version.
    private let roots: [String: (position: Int, outline: CertificateOutline?, indexed: IndexedAnchor?)]

    init(ordered: [String], outlines: [String: CertificateOutline], indexed: [String: IndexedAnchor]) {
        var roots: [String: (position: Int, outline: CertificateOutline?, indexed: IndexedAnchor?)] = [:]
        roots.reserveCapacity(ordered.count)
        for (position, id) in ordered.enumerated() { roots[id] = (position, outlines[id], indexed[id]) }
        self.roots = roots
    }

    /// Why the first of `ids` known by the index alone cannot be read, naming its file, reading each now if it was
    /// not yet; nil when all read (outlined roots were read with the run's stores).
    func unreadable(_ ids: [String]) -> String? {
        ids.lazy.compactMap { self.roots[$0]?.indexed?.unreadable }.first
    }

    /// The roots of `snapshot`'s version.
    func anchors(of snapshot: StoreSnapshot) -> (outlines: [CertificateOutline], indexed: [IndexedAnchor]) {
        let members = snapshot.rootIDs.compactMap { roots[$0] }.sorted { $0.position < $1.position }
        return (members.compactMap(\.outline), members.compactMap(\.indexed))
    }
}
