import Checking
import FoundationEssentials
import PolicyEngine

/// How `pinctl serve` runs: the policy file, where it listens, and its limits.
public struct ExporterSettings: Sendable {
    /// The policy file (pinctl.yaml) whose apps judge every probe; read again on SIGHUP.
    public var configPath: String
    /// The address to listen on: an IP literal or a host name.
    public var host: String
    /// The port; 0 lets the kernel choose (the log names it).
    public var port: Int
    /// Probe any host:port, not only the policy file's targets.
    /// - Warning: an exporter reachable by others then connects wherever it is told to (SSRF).
    public var allowAnyTarget: Bool
    /// Probes running at once; a probe beyond them is answered 503 at once, never queued.
    public var maxProbes: Int
    /// Seconds for resolution, connect and handshake of one probe, before Prometheus's scrape timeout caps it.
    public var timeout: Double
    /// A fixed evaluation time (`--at`); nil judges every probe at the clock's time.
    public var fixedTime: Date?
    /// Certificates expiring within this many days are warned about (as `check --warn-days`).
    public var warnDays: Int
    /// Where revocation fetches (Alamofire's revocation evaluator) may connect: public addresses only unless
    /// `--revocation-allow-private`.
    public var revocationAllowsPrivateAddresses = false
    /// `--ca-file`/`--ca-path`: the anchors standing for the system store in place of the policy file's, or beside
    /// each platform's roots (DESIGN §12), as `check` takes them.
    public var anchors: AnchorSettings
    /// Where the platform store snapshots are (`--stores`, else `PINCTL_STORES`, else the installed copy), read only
    /// when the file names `platforms:`.
    public var storesDirectory: StoreLocation
    /// The longest request target (path and query) accepted; longer ones get 414.
    public var maxURILength: Int = 2048
    /// Probes the status page lists.
    public var recentProbeCount: Int = 50
    /// Seconds a connection has to send a complete request, head and any body, from when it opens or its last answer
    /// was sent; then it is closed. Bounds what a client that trickles a request byte by byte (slowloris) holds, and
    /// how long an idle keep-alive connection stays.
    public var headerTimeout: Double = 10
    /// Seconds a reload (SIGHUP) may run before it counts as failed: the previous policy is still in use, and
    /// `pinctl_exporter_policy_last_reload_successful` drops to 0 until a reload succeeds.
    public var reloadTimeout: Double = 30
    /// Connections one client address may hold open at once; one more is closed as soon as it is accepted. A
    /// quarter of the 1,024 the server accepts: one Prometheus scraping many targets through this exporter opens a
    /// connection per scrape under way, four times the default --max-probes still fits.
    public var maxConnectionsPerAddress: Int = 256

    public init(
        configPath: String, host: String, port: Int, allowAnyTarget: Bool, maxProbes: Int, timeout: Double,
        fixedTime: Date?, warnDays: Int, anchors: AnchorSettings, storesDirectory: StoreLocation
    ) {
        self.configPath = configPath
        self.host = host
        self.port = port
        self.allowAnyTarget = allowAnyTarget
        self.maxProbes = maxProbes
        self.timeout = timeout
        self.fixedTime = fixedTime
        self.warnDays = warnDays
        self.anchors = anchors
        self.storesDirectory = storesDirectory
    }

    /// The policy as `check --config` takes it: the file, the anchors, the warning window.
    var policySettings: PolicySettings {
        PolicySettings(config: configPath, library: .afnetworking, flags: PolicyFlags(), anchors: anchors,
                       warnDays: warnDays)
    }
}
