import ArgumentParser
import FoundationEssentials
import PolicyEngine

struct StoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores",
        abstract: "List the platform root store snapshots, or compare two of them.",
        discussion: """
            The snapshots (Android API levels, Apple's trust stores by iOS and macOS version, Mozilla's as Debian \
            ships it) are built by scripts/build-stores.sh from the public histories of AOSP's \
            system/ca-certificates and Apple's security_certificates into a directory you name. pinctl reads it \
            from --stores DIR, else PINCTL_STORES, else the copy installed with pinctl (PREFIX/share/pinctl/stores: \
            /usr/share/pinctl/stores from the Debian package); the list names the directory it read and how it was \
            found (docs/platform-stores.md).

            Examples:
              pinctl stores --stores ~/pinctl-stores
              PINCTL_STORES=~/pinctl-stores pinctl stores android
              pinctl stores diff android@24 android@25
              pinctl stores diff ios@17 android@34
            """,
        subcommands: [StoresListCommand.self, StoresDiffCommand.self],
        defaultSubcommand: StoresListCommand.self
    )

    /// The snapshot directory `StoreLocation` finds; exit 2 with the reason when there is none or it cannot be read.
    static func open(_ options: StoresOptions) throws -> StoreSnapshots {
        try readingStores { () throws(StoreSnapshotError) in try StoreSnapshots(options.location) }
    }

    /// Runs `body`; a snapshot error is printed and ends the command with exit 2 (DESIGN §3: input error).
    static func readingStores<T>(_ body: () throws(StoreSnapshotError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            Terminal.error(error.description)
            try ExitStatus.inputError.exit()
        }
    }
}

struct StoresListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the platforms, their versions, snapshot dates and root counts (the default).",
        discussion: """
            Examples:
              pinctl stores list
              pinctl stores list android@21-25 ios --verbose
            """
    )

    @Argument(help: ArgumentHelp("Platforms to list, as NAME or NAME@VERSIONS (default: all).", valueName: "platform"))
    var platforms: [String] = []

    @Flag(name: .shortAndLong, help: "Also print where each snapshot came from (repository, commit, tag).")
    var verbose = false

    @OptionGroup var storeOptions: StoresOptions

    func run() throws {
        let snapshots = try StoresCommand.open(storeOptions)
        let (chosen, newest, index) = try StoresCommand.readingStores { () throws(StoreSnapshotError) in
            var chosen: [StoreSnapshot] = []
            for text in platforms.isEmpty ? snapshots.platforms() : platforms {
                // A version two selectors name (android@24 android@24-25) is listed once.
                for snapshot in try snapshots.select(try PlatformSelector(parsing: text))
                where !chosen.contains(where: { $0.name == snapshot.name }) {
                    chosen.append(snapshot)
                }
            }
            // Read as a run reads it: an index line it cannot read is the same error here, at its line.
            return (chosen, try snapshots.newestDate(), try snapshots.rootIndex())
        }
        // Which copy was read, and how old its data is: an installed copy ages with the package.
        print("snapshots in \(Terminal.safe(snapshots.directory)) \(snapshots.location.origin); newest snapshot "
            + (newest.map(Terminal.safe) ?? "none"))
        if chosen.isEmpty {
            print("no platform snapshots in \(Terminal.safe(snapshots.directory))")
            return
        }
        let width = max("snapshot".count, chosen.map(\.name.count).max() ?? 0)
        print("\("snapshot".padding(width))  date        roots  label")
        for snapshot in chosen {
            let count = String(snapshot.rootIDs.count)
            print("\(snapshot.name.padding(width))  \(Terminal.safe(snapshot.date).padding(10))  "
                + "\(String(repeating: " ", count: max(0, 5 - count.count)))\(count)  \(Terminal.safe(snapshot.label))")
            if verbose { print("\(String(repeating: " ", count: width + 2))source \(Terminal.safe(snapshot.source))") }
        }
        printIndexShortfall(index, of: chosen, in: snapshots.directory)
        guard chosen.contains(where: { $0.platform == "ios" || $0.platform == "macos" }) else { return }
        // The one CT log list every Apple version that requires Certificate Transparency is judged with. None is a
        // fact to list; one that cannot be read is the error a run on those versions gives, and the same exit 2.
        guard snapshots.hasAppleCTLogs else {
            print("no Apple CT log list (apple-ct-logs.cnf): judging on iOS 12 and macOS 10.14 or later needs one; "
                + "rebuild the snapshots with scripts/build-stores.sh from a security_certificates clone")
            return
        }
        let logs = try StoresCommand.readingStores { () throws(StoreSnapshotError) in try snapshots.appleCTLogs() }
        print("Apple CT log list of \(Terminal.safe(logs.dateText)): \(logs.trustedCount) logs trusted, "
            + "\(logs.untrustedCount) pending or rejected")
        if verbose { print("  source \(Terminal.safe(logs.source))") }
    }
}

extension StoresListCommand {
    /// Says how many of the listed versions' roots `roots.index` does not name, and how to index them: each such root
    /// is read whole for its name by every command that names its versions, which is most of such a run (#33,
    /// docs/platform-stores.md). Silent when the index names them all.
    func printIndexShortfall(_ index: StoreRootIndex?, of chosen: [StoreSnapshot], in directory: String) {
        let named = chosen.reduce(into: Set<String>()) { $0.formUnion($1.rootIDs) }
        let unindexed = named.count(where: { index?.names[$0] == nil })
        guard unindexed > 0 else { return }
        let script = "scripts/index-stores.sh \(index == nil ? "" : "--force ")\(Terminal.safe(directory))"
        if index == nil {
            print("no root index (roots.index): a command naming these versions reads all \(named.count) of their "
                + "roots to learn their names; \(script) writes one, and then only the roots a chain can reach are read")
        } else {
            print("roots.index does not name \(unindexed) of the \(named.count) roots of these versions: a command "
                + "naming them reads those to learn their names; \(script) indexes them all")
        }
    }
}

struct StoresDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List the roots one snapshot has and the other lacks (subject and SPKI pin).",
        discussion: """
            Each side names one version: NAME@VERSION.

            Examples:
              pinctl stores diff android@24 android@25
              pinctl stores diff ios@17 android@34 --stores ~/pinctl-stores
            """
    )

    @Argument(help: ArgumentHelp("The first snapshot, e.g. ios@17.", valueName: "platform@version"))
    var first: String

    @Argument(help: ArgumentHelp("The second snapshot, e.g. android@34.", valueName: "platform@version"))
    var second: String

    @OptionGroup var storeOptions: StoresOptions

    func run() throws {
        let snapshots = try StoresCommand.open(storeOptions)
        let diff = try StoresCommand.readingStores { () throws(StoreSnapshotError) in
            try StoreDiff(try one(first, in: snapshots), try one(second, in: snapshots), in: snapshots)
        }
        for (side, other, roots) in [(diff.left, diff.right, diff.onlyLeft), (diff.right, diff.left, diff.onlyRight)] {
            print("in \(side.name) (\(Terminal.safe(side.label)), \(Terminal.safe(side.date))), not in \(other.name): "
                + "\(roots.count) root\(roots.count == 1 ? "" : "s")")
            for root in roots { print("  \(root.pin)  \(Terminal.safe(root.subject))") }
        }
        guard !diff.reissued.isEmpty else { return }
        print("re-issued between \(diff.left.name) and \(diff.right.name) (the same key in another certificate: "
            + "trusts as before): \(diff.reissued.count) root\(diff.reissued.count == 1 ? "" : "s")")
        for pair in diff.reissued {
            print("  \(pair.right.pin)  \(Terminal.safe(pair.right.subject))")
            if pair.left.subject != pair.right.subject {
                print("    was \(Terminal.safe(pair.left.subject))")
            }
        }
    }

    /// The one snapshot `text` names; a bare name or a range is an error here.
    private func one(_ text: String, in snapshots: StoreSnapshots) throws(StoreSnapshotError) -> StoreSnapshot {
        let selector = try PlatformSelector(parsing: text)
        guard let versions = selector.versions, versions.lowerBound == versions.upperBound else {
            throw StoreSnapshotError("stores diff compares two versions: name one version on each side, "
                + "e.g. \(selector.platform)@\(selector.versions?.lowerBound.description ?? "N"), not "
                + text.debugDescription)
        }
        let chosen = try snapshots.select(selector)
        guard let snapshot = chosen.first else { throw StoreSnapshotError("\(text): no snapshot") }
        return snapshot
    }
}

extension String {
    /// The text padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
