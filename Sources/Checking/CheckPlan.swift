import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// What a run judges with, built once from the policy (the flags' one, or a policy file's apps) and the platforms:
/// every file read once, the judge built once, and on platforms one judge per version, built when a chain is first
/// judged on it (`PlatformJudges`). Every front end judges through a plan, so none assembles its own: `check` live,
/// `judge` a chain it was given (`verify`, `lint --chain`). `serve` builds one per load of its policy file.
public struct CheckPlan: Sendable {
    /// Without platforms, the one judge; on platforms, the first version's, standing for all where one is asked
    /// (which apps cover a domain, the file's targets).
    let judge: Judge
    let platforms: PlatformJudges?

    /// The targets the policy file lists; none for a policy given by flags.
    public var fileTargets: [Target] { judge.fileTargets }

    /// Whether the policy is a file of apps, whose runs end with a summary of the targets each app breaks on.
    public var isPolicyFile: Bool { judge.isPolicyFile }

    /// The policy file's apps that cover `domain`; none for a policy given by flags.
    public func apps(covering domain: String?) -> [PolicyFile.App] { judge.apps(covering: domain) }

    private init(judge: Judge, platforms: PlatformJudges?) {
        self.judge = judge
        self.platforms = platforms
    }

    /// The judges on platforms when there are any, the first standing for all; else `judge()`, built only then.
    private init(platforms: PlatformJudges?, else judge: () throws(InputError) -> Judge) throws(InputError) {
        // Judges on no version would give no result at all, and a run of no result passes.
        if let platforms, platforms.runs.isEmpty {
            throw InputError("the platforms named give no version to judge on")
        }
        if let first = platforms?.runs.first {
            self.init(judge: first.judge, platforms: platforms)
        } else {
            self.init(judge: try judge(), platforms: platforms)
        }
    }

    /// The plan `settings` and `platforms` name: a policy file is read here, once; `--platform` judges every app on
    /// the versions it names, else a policy file's `platforms:` (each app's own or the file's default) do.
    public init(_ settings: PolicySettings, platforms: PlatformSettings) throws(InputError) {
        var settings = settings
        settings.targetSdk = platforms.targetSdk
        guard let path = settings.config else {
            // `--platform system` alone judges as without platforms.
            let judges = platforms.selectors.isEmpty || platforms.systemOnly
                ? nil : try PlatformJudges(settings, on: platforms.stores())
            try self.init(platforms: judges) { () throws(InputError) in try Judge(flags: settings) }
            return
        }
        let file: PolicyFile
        do {
            file = try PolicyFile.load(path)
        } catch {
            throw InputError(error.description)
        }
        try self.init(file: file, settings, platforms: platforms)
    }

    /// The plan of a policy file already read (`settings.config` is not read again).
    public init(file: PolicyFile, _ settings: PolicySettings, platforms: PlatformSettings) throws(InputError) {
        var settings = settings
        settings.targetSdk = platforms.targetSdk
        let judges = if platforms.selectors.isEmpty {
            try PlatformJudges.named(by: file, settings, storesDirectory: platforms.storesDirectory)
        } else if platforms.systemOnly {
            // `--platform system` judges every app as without platforms, whatever the file's `platforms:` name.
            nil as PlatformJudges?
        } else {
            try PlatformJudges(settings, on: platforms.stores(), file: file)
        }
        try self.init(platforms: judges) { () throws(InputError) in try Judge(settings, file: file) }
    }

    /// The results of a live check of `target`: each edge's chain judged (on every platform version, grouped), then
    /// the revocation evidence each trusted report asks for.
    public func check(_ target: Target, _ live: LiveSettings) -> [TargetResult] {
        var checker = TargetChecker(connection: live.connection, edges: live.edges, judge: judge)
        checker.revocation = live.revocation
        checker.revocationDestination = live.revocationDestination
        checker.platforms = platforms
        return checker.check(target)
    }

    /// The results of a chain given offline (`verify`, `lint --chain`), judged as a live check judges one, with only
    /// the evidence files give.
    public func judge(_ presented: [X509Certificate], target: String, domain: String?,
                      evidence: OfflineEvidence = .none) -> [TargetResult]
    {
        let check = { (judge: Judge) -> [TargetResult] in
            OfflineChecker(judge: judge, evidence: evidence).check(target: target, domain: domain, presented: presented)
        }
        guard let platforms else { return check(judge) }
        return platforms.results(presented: presented, check) { reason in
            judge.failures(target: target, domain: domain, code: "input", message: reason).map(TargetResult.failed)
        }
    }

    /// The same plan at `time`, and only `onlyApp` when one is named: per probe of `serve`, nothing read again.
    public func at(_ time: Date, onlyApp: String? = nil) -> CheckPlan {
        changingJudges { $0.at(time, onlyApp: onlyApp) }
    }

    /// The same plan reusing the verifications `memo` remembers: for `serve`, which judges the same chains probe
    /// after probe.
    public func remembering(_ memo: VerificationMemo) -> CheckPlan {
        changingJudges { $0.remembering(memo) }
    }

    /// Distinct (chain, anchors, rules) verifications a plan that judges many chains keeps: each keeps its chain's
    /// certificates alive, so a fleet of many chains holds at most this many chains' worth.
    public static let verificationsRemembered = 512

    /// The same plan remembering the verifications it runs, for as long as it lives: a fleet serves one chain from
    /// many targets, so `check` of a list verifies it once per version class rather than once per target, and
    /// `serve` once per load rather than once per probe (`VerificationMemo` says when a verification is reused).
    public func rememberingVerifications() -> CheckPlan {
        remembering(VerificationMemo(capacity: Self.verificationsRemembered))
    }

    /// The same plan, every judge (the one, or each version's) changed by `change`.
    private func changingJudges(_ change: @escaping @Sendable (Judge) -> Judge) -> CheckPlan {
        let judges = platforms?.changingJudges(change)
        return CheckPlan(judge: judges?.runs.first?.judge ?? change(judge), platforms: judges)
    }
}

/// How a live check connects: the connection, the edges, and the revocation check of every trusted chain.
public struct LiveSettings: Sendable {
    public var connection: ConnectionSettings
    public var edges: EdgeSettings
    /// `--revocation`: how every trusted chain's leaf is checked; `.none` leaves it to each library.
    public var revocation: RevocationMode
    /// Where revocation fetches may connect (`--revocation-allow-private`).
    package var revocationDestination: RevocationDestination

    /// Edges of one target checked at once (`--all-addresses`, `--key-types`, `--tls`); more wait for a free slot.
    public static var parallelEdges: Int { TargetChecker.parallelEdges }

    package init(connection: ConnectionSettings, edges: EdgeSettings = EdgeSettings(), revocation: RevocationMode = .none,
                revocationDestination: RevocationDestination = RevocationDestination(allowsPrivateAddresses: false)) {
        self.connection = connection
        self.edges = edges
        self.revocation = revocation
        self.revocationDestination = revocationDestination
    }
}
