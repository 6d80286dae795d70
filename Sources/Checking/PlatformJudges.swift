import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// Judging on platforms (DESIGN §12): one judge per platform version, each with that version's store where the
/// system store stands, and the versions whose verdicts are the same (`Verdict`: the reason, the path taken and its
/// rotation forecast) grouped into one result per (target, app, platform range).
struct PlatformJudges: Sendable {
    /// One platform version and the judge that judges on it.
    public struct Run: Sendable {
        public let store: PlatformStore
        private let built: BuiltOnFirstUse<Judge>

        init(store: PlatformStore, judge: @escaping @Sendable () -> Judge) {
            self.store = store
            built = BuiltOnFirstUse(judge)
        }

        /// Built when first asked for: a version whose class another version already judged never builds one.
        public var judge: Judge { built.value }
    }

    /// In the order the versions were named.
    public let runs: [Run]
    /// The versions (`android@24`) of each app of a policy file that names its own `platforms:`; an app not listed
    /// is judged on every version.
    var appVersions: [String: Set<String>] = [:]
    /// The libraries whose policies judge: the flags' one, or every app's of the policy file.
    private var libraries: Set<Library> = []
    /// Whether roots are given as the user's: without them, Android's opt-in to user roots from API 24 changes
    /// nothing, and versions on both sides of it share a class.
    private var hasUserRoots = false

    /// What a policy file already read asks for with its `platforms:` (each app's own or the file's default), judged
    /// by every app of `file`; nil when it names none. A `CheckPlan` builds these once (`serve`: per load of its file).
    public static func named(by file: PolicyFile, _ settings: PolicySettings, storesDirectory: StoreLocation)
        throws(InputError) -> PlatformJudges?
    {
        var named: [String] = []
        var appVersions: [String: Set<String>] = [:]
        // One directory read for every app: each membership file once. One that cannot be opened is opened again
        // below, where its error is given in the place of the app that named it.
        let snapshots = try? StoreSnapshots(storesDirectory)
        let prefetch = snapshots.map { snapshots in
            SnapshotPrefetch(file.apps.flatMap { app in
                (app.platforms ?? file.platforms)?.map(\.description) ?? (app.minSdk == nil ? [] : ["android"])
            }, in: snapshots)
        }
        defer { prefetch?.join() }
        prefetch?.readMemberships()
        // Apps on `system` alone judge as without platforms: only in a file whose other apps name no snapshot.
        var systemPlace: String?
        for app in file.apps {
            let selectors: [String]
            let place = app.platforms == nil ? file.path : "\(app.location): app \(app.name)"
            if let chosen = app.platforms ?? file.platforms, chosen.contains(where: \.isSystem) {
                // `system` beside a version in one list is refused as on the command line, at the app.
                do throws(StoreSnapshotError) {
                    _ = try PlatformSettings.snapshotSelectors(chosen.map(\.description))
                } catch {
                    throw InputError("\(place): platforms: \(error.description)")
                }
                systemPlace = systemPlace ?? place
                continue
            }
            if let chosen = app.platforms ?? file.platforms {
                selectors = chosen.map(\.description)
            } else if let minSdk = app.minSdk {
                // DESIGN §12: from minSdk to the newest snapshot; without one, judged as without platforms (the
                // evaluation says so).
                let selector = "android@\(minSdk)-"
                guard let versions = try? PlatformSettings(selectors: [selector], storesDirectory: storesDirectory)
                    .versionNames(in: snapshots) else { continue }
                appVersions[app.name] = versions
                if !named.contains(selector) { named.append(selector) }
                continue
            } else {
                continue
            }
            // Each app's versions first, without reading a root: a version without a snapshot is named at its key.
            do throws(InputError) {
                appVersions[app.name] = try PlatformSettings(selectors: selectors, storesDirectory: storesDirectory)
                    .versionNames(in: snapshots)
            } catch {
                throw InputError("\(place): \(error.description)")
            }
            for text in selectors where !named.contains(text) { named.append(text) }
        }
        guard !named.isEmpty else { return nil }
        // Beside versions, an app judged as without platforms would be judged on every version instead.
        if let systemPlace {
            throw InputError("\(systemPlace): platforms: system (OpenSSL's default store, as without a platform) "
                + "cannot be judged in one run beside apps judged on \(named.joined(separator: ", ")): check the "
                + "apps on system in a run of their own")
        }
        let stores = try PlatformSettings(selectors: named, storesDirectory: storesDirectory).stores(in: snapshots)
        var judges = try PlatformJudges(settings, on: stores, file: file)
        judges.appVersions = appVersions
        return judges
    }

    /// A judge for `settings` on each of `stores`: every app of `file` when given (the settings' file is then not
    /// read again), else what the settings name. Everything is read and built once, for the first version, so what
    /// cannot be read or built is an error here; the other versions' judges differ only in the store and rules of the
    /// version, and are built when first asked for.
    public init(_ settings: PolicySettings, on stores: [PlatformStore], file: PolicyFile? = nil) throws(InputError) {
        guard let first = stores.first else {
            runs = []
            return
        }
        var onFirst = settings
        onFirst.platform = first
        let base = if let file { try Judge(onFirst, file: file) } else { try Judge(flags: onFirst) }
        libraries = file.map { Set($0.apps.map(\.library)) } ?? [settings.library]
        hasUserRoots = base.hasUserRoots
        runs = stores.enumerated().map { index, store in
            Run(store: store, judge: { index == 0 ? base : base.on(store) })
        }
    }

    private init(runs: [Run], appVersions: [String: Set<String>], libraries: Set<Library>, hasUserRoots: Bool) {
        self.runs = runs
        self.appVersions = appVersions
        self.libraries = libraries
        self.hasUserRoots = hasUserRoots
    }

    /// The same judges, each changed by `change` when first asked for (`Judge.at` per check, `Judge.remembering`
    /// for `serve`): nothing read again.
    func changingJudges(_ change: @escaping @Sendable (Judge) -> Judge) -> PlatformJudges {
        PlatformJudges(runs: runs.map { run in Run(store: run.store, judge: { change(run.judge) }) },
                       appVersions: appVersions, libraries: libraries, hasUserRoots: hasUserRoots)
    }

    /// The results of `check` of the `presented` chain on every version, grouped: the reports of consecutive versions
    /// of one platform with the same verdict become one report carrying their `PlatformRange`. Versions that judge
    /// this chain alike (`VersionClass`) are judged once.
    ///
    /// A root the chain can reach that cannot be read (with an index, roots are read only then) gives `unreadable`'s
    /// results for its reason: an input error (exit 2), as without an index, not a rejection saying the app breaks.
    public func results<E: Error>(presented: [X509Certificate], _ check: (Judge) throws(E) -> [TargetResult],
                                  unreadable: (String) -> [TargetResult]) throws(E) -> [TargetResult]
    {
        if let reason = runs.first?.store.unreadableRoot(reachableFrom: presented) { return unreadable(reason) }
        var versions: [Version] = []
        var judged: [VersionClass: (results: [TargetResult], number: Int)] = [:]
        // One number for each distinct list of results: a class's, less the apps that do not run on the version.
        var numbers: [Identity: Int] = [:]
        for run in runs {
            let key = VersionClass(run.store, presented: presented, judgedBy: libraries, userRoots: hasUserRoots)
            let found: (results: [TargetResult], number: Int)
            if let known = judged[key] {
                found = known
            } else {
                found = (try check(run.judge), judged.count)
                judged[key] = found
            }
            var results = found.results
            let absent = appsAbsent(on: run.store)
            if !absent.isEmpty {
                results = results.filter { $0.report?.app.map { !absent.contains($0.name) } ?? true }
            }
            let identity = Identity(judged: found.number, absent: absent)
            let number = numbers[identity, default: numbers.count]
            numbers[identity] = number
            versions.append(Version(store: run.store, results: results, judgement: number))
        }
        return Self.grouped(versions)
    }

    /// The apps of a policy file whose own `platforms:` do not name that version (an app naming none runs on all).
    private func appsAbsent(on store: PlatformStore) -> Set<String> {
        guard !appVersions.isEmpty else { return [] }
        let name = store.snapshot.name
        return Set(appVersions.compactMap { app, versions in versions.contains(name) ? nil : app })
    }

    /// A version's results as a class's judgement less the apps absent from the version: versions alike in both have
    /// the same results.
    private struct Identity: Hashable {
        let judged: Int
        let absent: Set<String>
    }

    /// One version's results, and their number: versions with the same number have the same results.
    struct Version {
        let store: PlatformStore
        let results: [TargetResult]
        let judgement: Int
    }

    /// Every version's results as one list: the reports grouped into platform ranges, then each failure once.
    static func grouped(_ versions: [Version]) -> [TargetResult] {
        // A policy that cannot be built or a domain no app covers is the same on every version; evidence an app asked
        // for on the versions that trust the chain is its error once, whichever version asked.
        var failures: [FailureReport] = []
        var said: Set<String> = []
        var reports: [Int: [TargetReport]] = [:]
        for version in versions where reports[version.judgement] == nil {
            reports[version.judgement] = version.results.reports
            for case .failed(let failure) in version.results
            where said.insert("\(failure.app?.name ?? "")\n\(failure.message)").inserted {
                failures.append(failure)
            }
        }
        var grouped: [TargetReport] = []
        var start = versions.startIndex
        while start < versions.endIndex {
            let platform = versions[start].store.snapshot.platform
            let end = versions[start...].firstIndex { $0.store.snapshot.platform != platform } ?? versions.endIndex
            grouped += group(versions[start..<end].map { ($0.store.snapshot, $0.judgement) }, reports: reports,
                             platform: platform)
            start = end
        }
        return grouped.map(TargetResult.judged) + failures.map(TargetResult.failed)
    }

    /// Per app, the runs of consecutive versions with the same verdict, each as its first version's report. A
    /// version without the app's report (its evidence could not be had) ends a run.
    private static func group(
        _ versions: [(snapshot: StoreSnapshot, judgement: Int)], reports: [Int: [TargetReport]], platform: String
    ) -> [TargetReport] {
        // Each distinct list of reports read once: its apps in order, and each app's report.
        var apps: [String] = []
        var byApp: [Int: [String: TargetReport]] = [:]
        for version in versions where byApp[version.judgement] == nil {
            let listed = reports[version.judgement] ?? []
            for report in listed where !apps.contains(report.app?.name ?? "") { apps.append(report.app?.name ?? "") }
            byApp[version.judgement] = Dictionary(listed.map { ($0.app?.name ?? "", $0) }) { first, _ in first }
        }
        var grouped: [TargetReport] = []
        for app in apps {
            var run: (report: TargetReport, first: StoreSnapshot, last: StoreSnapshot)?
            func close() {
                guard var report = run?.report, let first = run?.first, let last = run?.last else { return }
                report.platform = PlatformRange(platform: platform, first: first, last: last,
                                                missingRoot: missingRoot(report))
                grouped.append(report)
                run = nil
            }
            // The number of the run's last version: the next version's report under the same number is the same
            // report, so the run goes on without comparing verdicts, or even copying the report out.
            var last: Int?
            for (snapshot, judgement) in versions {
                if judgement == last {
                    run?.last = snapshot
                    continue
                }
                guard let report = byApp[judgement]?[app] else {
                    close()
                    last = nil
                    continue
                }
                if let current = run?.report, Verdict(current) == Verdict(report) {
                    run?.last = snapshot
                } else {
                    close()
                    run = (report, snapshot, snapshot)
                }
                last = judgement
            }
            close()
        }
        return grouped
    }

    /// The issuer of the top certificate of a chain no anchor of the store issued.
    private static func missingRoot(_ report: TargetReport) -> String? {
        guard case .untrustedChain(let failure, _, _)? = report.evaluation.rejection?.reason, failure.isMissingIssuer,
              let top = report.evaluation.builtChain.last ?? report.evaluation.chain.last else { return nil }
        return top.issuer
    }

    /// What makes two versions one result: trusted or why not, on what basis, the root a store lacks, and the path
    /// taken. The path is the chain pins are compared with and the one a result names (DESIGN §12), so versions that
    /// build different paths are different results even when both trust the chain: a range's report, its chain and
    /// lint's attribution must hold for every version in it. The rotation forecast lint prints per range, with its
    /// breaks-on date, is a function of the app's pins and this path (`RotationForecast`), so the same path gives the
    /// same forecast: a root pin breaks on the end date of the root the path ends at. The warnings too: a range says
    /// its first version's, which must be every version's (a root of one version's store that cannot be read).
    private struct Verdict: Equatable {
        let trusted: Bool
        let code: String?
        let basis: String?
        let pin: String?
        let missingRoot: String?
        let path: [X509Certificate]
        let warnings: [String]

        init(_ report: TargetReport) {
            trusted = report.evaluation.isTrusted
            code = report.evaluation.rejection?.reason.code
            basis = report.evaluation.trustBasis?.code
            pin = report.evaluation.matchedPin?.source.description
            missingRoot = PlatformJudges.missingRoot(report)
            path = report.evaluation.builtChain.certificates
            warnings = report.warnings
        }
    }
}
