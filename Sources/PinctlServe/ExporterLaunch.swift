import Exporter
import Logging
import PinctlCLI
import Transport

/// Runs the exporter for a checked `pinctl serve` command line, until SIGTERM.
enum ExporterLaunch {
    static func serve(_ request: ServeRequest) -> String? {
        let level = request.logLevel
        LoggingSystem.bootstrap { label in
            // Escaped in one place: what a request carries reaches the log through metadata and messages alike.
            var handler = EscapingLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "pinctl.serve")
        if request.allowAnyTarget {
            logger.warning("--allow-any-target: whoever reaches this exporter can make it connect to any host and port")
        }
        if request.revocationAllowPrivate {
            logger.warning("""
                --revocation-allow-private: a probed server's certificate can make this exporter send OCSP and CRL \
                requests to hosts inside its network
                """)
        }
        var settings = ExporterSettings(
            configPath: request.configPath, host: request.host, port: request.port,
            allowAnyTarget: request.allowAnyTarget, maxProbes: request.maxProbes, timeout: request.timeout,
            fixedTime: request.fixedTime, warnDays: request.warnDays, anchors: request.anchors,
            storesDirectory: request.storesDirectory)
        settings.headerTimeout = request.headerTimeout
        settings.maxConnectionsPerAddress = request.maxConnectionsPerAddress
        settings.revocationAllowsPrivateAddresses = request.revocationAllowPrivate
        let outcome = wait { [settings] () async throws(Exporter.StartError) in try await Exporter.run(settings, logger: logger) }
        guard case .failure(let error) = outcome else { return nil }
        return error.description
    }

    /// Runs async work from the synchronous command line and waits for it: every other command is synchronous.
    private static func wait<Failure: Error>(_ work: @escaping @Sendable () async throws(Failure) -> Void)
        -> Result<Void, Failure>
    {
        let box = ResultBox<Failure>()
        Task.detached {
            let result: Result<Void, Failure>
            do throws(Failure) {
                try await work()
                result = .success(())
            } catch {
                result = .failure(error)
            }
            box.finish(result)
        }
        return box.wait()
    }

    // @unchecked Sendable: `result` is only read and written with `done` held.
    private final class ResultBox<Failure: Error>: @unchecked Sendable {
        private let done = ThreadCondition()
        private var result: Result<Void, Failure>?

        func finish(_ result: Result<Void, Failure>) {
            done.withLock {
                self.result = result
                done.broadcast()
            }
        }

        func wait() -> Result<Void, Failure> {
            done.withLock {
                while true {
                    if let result { return result }
                    done.wait()
                }
            }
        }
    }
}
