import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import PolicyEngine
import ServiceLifecycle
import UnixSignals

/// `pinctl serve`: a Prometheus exporter in the style of the blackbox exporter that judges pins (DESIGN §11).
public enum Exporter {
    /// Why the exporter could not start: an unreadable policy file, or an address it cannot listen on.
    public struct StartError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// How serving ended.
    public enum Ending: Sendable {
        /// Everything the exporter started has ended.
        case clean
        /// A reload was still running, on a thread nothing can stop: the process must end without its exit handlers,
        /// as OpenSSL's would free what that thread is still using (a crash at exit, one stop in fifteen).
        case reloadAbandoned
    }

    /// Serves until SIGTERM or SIGINT, then stops accepting, lets the probes under way finish, and returns.
    @discardableResult
    public static func run(_ settings: ExporterSettings, logger: Logger) async throws(StartError) -> Ending {
        let policies: PolicyHolder
        do {
            policies = PolicyHolder(try LoadedPolicy.load(settings))
        } catch {
            throw StartError(description: error.description)
        }
        let slots = ProbeSlots(capacity: settings.maxProbes)
        let metrics = ExporterMetrics(slots: slots)
        metrics.policyLoaded(apps: policies.policy.file.apps.count, at: policies.policy.loadedAt)
        let threads = ProbeThreads(limit: settings.maxProbes)
        let reloads = ReloadProgress()
        let routes = ExporterRoutes(settings: settings, policies: policies, reloads: reloads, slots: slots,
                                    threads: threads, metrics: metrics,
                                    recent: RecentProbes(limit: settings.recentProbeCount), fleet: Fleet(),
                                    reports: FieldReports(limit: settings.recentProbeCount),
                                    logger: logger)
        // Trapped before the server listens, so that a SIGHUP sent once it does never meets the default action.
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let reloader = PolicyReloader(signals: hangups, settings: settings, policies: policies, progress: reloads,
                                      metrics: metrics, logger: logger)
        let perAddress = ConnectionsPerAddress(limit: settings.maxConnectionsPerAddress) {
            metrics.connectionRefused()
        }
        let app = Application(
            router: routes.router(),
            server: .http1(configuration: .init(
                additionalChannelHandlers: [
                    perAddress.handler(),
                    ConnectionBounds(requestTimeout: .milliseconds(Int64(settings.headerTimeout * 1000))),
                ],
                httpDecoderConfiguration: .init(maxHeaderFieldSize: 8192, maxHeaderListSize: 16384,
                                                maxHeaderFieldCount: 100))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil,
                                 availableConnectionsDelegate: MaximumAvailableConnections(1024)),
            onServerRunning: { channel in
                let port = channel.localAddress?.port.map(String.init) ?? "?"
                logger.notice("serving /probe, /metrics and / on \(displayHost(settings.host)):\(port)", metadata: [
                    "policy": "\(settings.configPath)", "max-probes": "\(settings.maxProbes)",
                    "allow-any-target": "\(settings.allowAnyTarget)",
                ])
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: app), .init(service: reloader)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        do {
            try await group.run()
        } catch {
            threads.stop()
            throw StartError(description: "cannot serve on \(displayHost(settings.host)):\(settings.port): \(error)")
        }
        threads.stop()
        guard reloads.running == nil else {
            logger.notice("stopped; the reload under way is abandoned")
            return .reloadAbandoned
        }
        logger.notice("stopped")
        return .clean
    }

    /// An IPv6 literal in brackets, as in a URL.
    static func displayHost(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }
}
