import Exporter
import Glibc
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
        settings.reloadTimeout = request.reloadTimeout
        settings.maxConnectionsPerAddress = request.maxConnectionsPerAddress
        settings.revocationAllowsPrivateAddresses = request.revocationAllowPrivate
        let outcome = wait { [settings] () async throws(Exporter.StartError) in try await Exporter.run(settings, logger: logger) }
        switch outcome {
        case .success(.clean):
            return nil
        case .success(.reloadAbandoned):
            // Exits 0 as a clean stop does, without the exit handlers (see `Exporter.Ending`); stderr is unbuffered.
            fflush(nil)
            _exit(0)
        case .failure(let error):
            return error.description
        }
    }

    /// Runs async work from the synchronous command line and waits for it: every other command is synchronous.
    private static func wait<Success: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () async throws(Failure) -> Success
    ) -> Result<Success, Failure> {
        let box = ResultBox<Success, Failure>()
        Task.detached {
            let result: Result<Success, Failure>
            do throws(Failure) {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            box.finish(result)
        }
        return box.wait()
    }

    // @unchecked Sendable: `result` is only read and written with `done` held.
    private final class ResultBox<Success, Failure: Error>: @unchecked Sendable {
        private let done = ThreadCondition()
        private var result: Result<Success, Failure>?

        func finish(_ result: Result<Success, Failure>) {
            done.withLock {
                self.result = result
                done.broadcast()
            }
        }

        func wait() -> Result<Success, Failure> {
            done.withLock {
                while true {
                    if let result { return result }
                    done.wait()
                }
            }
        }
    }
}
