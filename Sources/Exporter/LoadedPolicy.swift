import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import Synchronization

/// A policy file read and ready to judge with: its apps and the anchors standing for the system store.
struct LoadedPolicy: Sendable {
    let file: PolicyFile
    let store: TrustStore
    let loadedAt: Date

    /// Reads the file and its anchors; the error says what is wrong, naming the file, line and key.
    static func load(_ settings: ExporterSettings) throws(InputError) -> LoadedPolicy {
        let file: PolicyFile
        do {
            file = try PolicyFile.load(settings.configPath)
        } catch {
            throw InputError(error.description)
        }
        if let refusal = platformsRefusal(file, path: settings.configPath) { throw InputError(refusal) }
        do {
            return LoadedPolicy(file: file, store: try settings.trustStore(file.caFiles, file.caPaths),
                                loadedAt: Date())
        } catch {
            throw InputError("\(error)")
        }
    }

    /// serve judges on one store, the system's (or the anchors given): a file that names platform versions (DESIGN
    /// §12) would get from `check` a verdict per version and from serve one that holds for none of them, so it is
    /// refused, naming the key, rather than judged otherwise than `check` judges it.
    static func platformsRefusal(_ file: PolicyFile, path: String) -> String? {
        let place: String
        if file.platforms != nil {
            place = "\(path): platforms:"
        } else if let app = file.apps.first(where: { $0.platforms != nil }) {
            place = "\(app.location): app \(app.name): platforms:"
        } else {
            return nil
        }
        return "\(place) pinctl serve does not judge on platform versions yet; pinctl check and verify do "
            + "(remove platforms: from the file serve reads)"
    }

    /// Whether `target` is one of the file's `targets:` (the host compared without case).
    func lists(_ target: Target) -> Bool {
        file.targets.contains { $0.port == target.port && $0.host.lowercased() == target.host.lowercased() }
    }
}

/// The policy every new probe uses; a reload swaps it whole, so a probe under way keeps the one it started with.
final class PolicyHolder: Sendable {
    private let current: Mutex<LoadedPolicy>

    init(_ policy: LoadedPolicy) { current = Mutex(policy) }

    var policy: LoadedPolicy { current.withLock { $0 } }

    /// Reads the file again; on failure the old policy stays and the error says why.
    func reload(_ settings: ExporterSettings) throws(InputError) -> LoadedPolicy {
        let policy = try LoadedPolicy.load(settings)
        current.withLock { $0 = policy }
        return policy
    }
}
