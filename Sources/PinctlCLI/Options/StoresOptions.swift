import ArgumentParser

/// `--stores DIR`: where the platform store snapshots are (docs/platform-stores.md).
struct StoresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The store snapshot directory scripts/build-stores.sh wrote (default: $PINCTL_STORES).", valueName: "dir"))
    var stores: String?
}
