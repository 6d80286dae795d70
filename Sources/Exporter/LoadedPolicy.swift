import Checking
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine
import Synchronization

/// A policy file read and ready to judge with, built once per load so that a probe only sets the time: its apps
/// with the anchors standing for the system store, and on each platform version the file names (DESIGN §12) the
/// judges `check --config` builds for it.
struct LoadedPolicy: Sendable {
    let file: PolicyFile
    /// Every app of the file on the system store (or the anchors given in its place), or on each platform version
    /// its `platforms:` name.
    let plan: CheckPlan
    let loadedAt: Date
    /// The certificates servers present, each read out of its DER once however many probes meet it.
    let presentedCertificates = CertificateMemo(capacity: certificatesRemembered)

    /// Distinct certificates kept per load, from the handshakes of every target: a few KiB each.
    static let certificatesRemembered = 256

    /// Reads the file, its anchors and the store snapshots of the platforms it names; the error says what is wrong,
    /// naming the file, line and key, or the platform version there is no snapshot of.
    static func load(_ settings: ExporterSettings) throws(InputError) -> LoadedPolicy {
        let file: PolicyFile
        do {
            file = try PolicyFile.load(settings.configPath)
        } catch {
            throw InputError(error.description)
        }
        // Read once: the judges and the file the routes consult are of the same text, however it changes meanwhile.
        let policy = settings.policySettings
        // The plan remembers each distinct chain's verifications, as a fleet serves the same chain from many
        // targets, probe after probe: on platforms, per version class (where Certificate Transparency is required,
        // only at the same time, so not from one probe to the next; `VerificationMemo`).
        let plan = try CheckPlan(file: file, policy, platforms: PlatformSettings(storesDirectory: settings.storesDirectory))
            .rememberingVerifications()
        return LoadedPolicy(file: file, plan: plan, loadedAt: Date())
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

    /// Puts a policy read again in place of the one in use.
    func replace(with policy: LoadedPolicy) {
        current.withLock { $0 = policy }
    }
}
