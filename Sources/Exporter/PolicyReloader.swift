import Logging
import ServiceLifecycle
import UnixSignals

/// Reads the policy file again on every SIGHUP. A file that does not load leaves the old policy in use; the log
/// says why, and `pinctl_exporter_policy_last_reload_successful` drops to 0.
struct PolicyReloader: Service {
    let signals: UnixSignalsSequence
    let settings: ExporterSettings
    let policies: PolicyHolder
    let metrics: ExporterMetrics
    let logger: Logger

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            reload()
        }
    }

    func reload() {
        do {
            let policy = try policies.reload(settings)
            metrics.policyLoaded(apps: policy.file.apps.count, at: policy.loadedAt)
            logger.info("policy file reloaded", metadata: [
                "file": "\(settings.configPath)", "apps": "\(policy.file.apps.count)",
                "targets": "\(policy.file.targets.count)",
            ])
        } catch {
            metrics.policyReloadFailed()
            logger.error("policy file not reloaded; the previous one stays in use", metadata: [
                "file": "\(settings.configPath)", "error": "\(error.description)",
            ])
        }
    }
}
