import ArgumentParser
import FoundationEssentials

/// `--stores DIR`: where the platform store snapshots are (docs/platform-stores.md).
struct StoresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The store snapshot directory scripts/build-stores.sh wrote (default: $PINCTL_STORES).", valueName: "dir"))
    var stores: String?

    /// `--stores`, else `PINCTL_STORES`; nil when neither is given.
    var directory: String? { stores ?? ProcessInfo.processInfo.environment["PINCTL_STORES"] }
}
