import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// The anchors standing for the system store, and the evaluation time, as plain values (`--ca-file`, `--ca-path`,
/// `--at`).
public struct AnchorSettings: Sendable {
    /// Anchor files (PEM or DER) replacing the system store; empty with `caPaths`: the system store.
    public var caFiles: [String]
    /// Hashed anchor directories (`openssl rehash`) replacing the system store.
    public var caPaths: [String]
    /// The evaluation time.
    public var time: Date

    public init(caFiles: [String] = [], caPaths: [String] = [], time: Date) {
        self.caFiles = caFiles
        self.caPaths = caPaths
        self.time = time
    }

    /// The anchors that stand for the system store: `caFiles`/`caPaths` when given, else the anchors a policy file
    /// names (`fallback`), else the system store. A file that cannot be read is an input error naming where it was
    /// given.
    public func trustStore(fallback: (caFiles: [String]?, caPaths: [String]?) = (nil, nil)) throws(InputError)
        -> TrustStore
    {
        if !caFiles.isEmpty || !caPaths.isEmpty {
            do {
                return try TrustStore.caFiles(caFiles, directories: caPaths)
            } catch {
                throw InputError("--ca-file/--ca-path \(error.description)")
            }
        }
        guard fallback.caFiles != nil || fallback.caPaths != nil else { return TrustStore.system() }
        do {
            return try TrustStore.caFiles(fallback.caFiles ?? [], directories: fallback.caPaths ?? [])
        } catch {
            throw InputError("anchors: \(error.description)")
        }
    }

    /// The anchors on a platform version (DESIGN §12): its store's roots, and beside them the anchors given
    /// (`caFiles`/`caPaths`, else the policy file's `fallback`) as that platform's user-added roots, which come back
    /// apart too (nil when none are given), since some of the platform's rules treat them differently.
    public func trustStore(on platform: PlatformStore,
                           fallback: (caFiles: [String]?, caPaths: [String]?) = (nil, nil)) throws(InputError)
        -> (store: TrustStore, userRoots: TrustStore?)
    {
        let given = !caFiles.isEmpty || !caPaths.isEmpty || fallback.caFiles != nil || fallback.caPaths != nil
        guard given else { return (platform.roots, nil) }
        let user = try trustStore(fallback: fallback)
        return (Self.anchors(on: platform, userRoots: user), user)
    }

    /// A platform version's roots and the roots its user added, as one store.
    static func anchors(on platform: PlatformStore, userRoots: TrustStore) -> TrustStore {
        .union([platform.roots, userRoots], origin: "\(platform.roots.origin) and \(userRoots.origin)")
    }
}
