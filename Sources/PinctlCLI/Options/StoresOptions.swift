import ArgumentParser
import PolicyEngine

/// `--stores DIR`: where the platform store snapshots are (docs/platform-stores.md), else `PINCTL_STORES`, else the
/// copy installed with pinctl (`StoreLocation`).
struct StoresOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The store snapshot directory scripts/build-stores.sh wrote. Without it: $PINCTL_STORES, else the copy "
            + "installed with pinctl (PREFIX/share/pinctl/stores, /usr/share/pinctl/stores from the Debian package).",
        valueName: "dir"))
    var stores: String?

    /// Where the snapshots are: `--stores`, else `PINCTL_STORES`, else the copy installed beside the binary.
    var location: StoreLocation { StoreLocation.forThisProcess(option: stores) }
}
