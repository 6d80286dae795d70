import FoundationEssentials
import Logging
import PolicyEngine
import ServiceLifecycle
import Synchronization
import UnixSignals

/// Reads the policy file again on every SIGHUP. A file that does not load leaves the old policy in use; the log
/// says why, and `pinctl_exporter_policy_last_reload_successful` drops to 0.
///
/// A reload reads whatever the file names, and some input may block it or take minutes (issue #32), so it runs on
/// a thread of its own (`DetachedWork`) and nothing waits for it but the next reload: probes go on with the previous
/// policy, SIGTERM stops the exporter at once, SIGHUPs that come meanwhile make one more reload after it, and one
/// still running after `--reload-timeout` counts as failed (the gauge at 0, the log and the status page say so).
struct PolicyReloader: Service {
    let signals: UnixSignalsSequence
    let settings: ExporterSettings
    let policies: PolicyHolder
    let progress: ReloadProgress
    let metrics: ExporterMetrics
    let logger: Logger

    func run() async throws {
        // At most one SIGHUP waits while a reload runs: however many come, they all ask for the file as it is now.
        let (requests, requested) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask {
                    for await _ in signals { requested.yield() }
                }
                for await _ in requests { await reload() }
            }
        }
    }

    func reload() async {
        progress.started(at: Date())
        let outcome: Result<LoadedPolicy, InputError>? = await withTaskGroup { group in
            group.addTask { await reportIfStuck() }
            let outcome = await DetachedWork.run { [settings] in
                Result { () throws(InputError) in try LoadedPolicy.load(settings) }
            }
            group.cancelAll()
            return outcome
        }
        // nil: the exporter is stopping, and the reload, still running, is left to end with the process.
        guard let outcome else { return }
        progress.finished()
        switch outcome {
        case .success(let policy):
            policies.replace(with: policy)
            metrics.policyLoaded(apps: policy.file.apps.count, at: policy.loadedAt)
            logger.info("policy file reloaded", metadata: [
                "file": "\(settings.configPath)", "apps": "\(policy.file.apps.count)",
                "targets": "\(policy.file.targets.count)",
            ])
        case .failure(let error):
            metrics.policyReloadFailed()
            logger.error("policy file not reloaded; the previous one stays in use", metadata: [
                "file": "\(settings.configPath)", "error": "\(error.description)",
            ])
        }
    }

    /// Once the reload under way has run `--reload-timeout`, says so: it may never end.
    private func reportIfStuck() async {
        guard (try? await Task.sleep(for: .seconds(settings.reloadTimeout))) != nil else { return }
        progress.markStuck()
        metrics.policyReloadStuck()
        logger.error("""
            policy file reload still running after --reload-timeout; the previous policy stays in use, and a SIGHUP \
            now reloads only once this one ends: restart pinctl serve if it never does
            """, metadata: ["file": "\(settings.configPath)", "seconds": "\(settings.reloadTimeout)"])
    }
}

/// Whether a reload is under way, since when, and whether it has outrun `--reload-timeout`: for the status page.
final class ReloadProgress: Sendable {
    struct Running: Sendable {
        let since: Date
        var stuck = false
    }

    private let state = Mutex<Running?>(nil)

    /// The reload under way, if any.
    var running: Running? { state.withLock { $0 } }

    func started(at time: Date) { state.withLock { $0 = Running(since: time) } }

    func markStuck() { state.withLock { $0?.stuck = true } }

    func finished() { state.withLock { $0 = nil } }
}
