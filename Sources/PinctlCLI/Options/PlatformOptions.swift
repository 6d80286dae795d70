import ArgumentParser
import Checking
import FoundationEssentials
import PolicyEngine

/// `--platform NAME[@VERSIONS]` (repeatable) and where the snapshots are: judge on those platform versions' stores
/// (DESIGN §12).
struct PlatformOptions: ParsableArguments {
    @Option(name: .customLong("platform"), help: ArgumentHelp(
        "Judge on each version of this platform's root store (android@24-36, ios@17, macos, mozilla): its roots "
            + "stand for the system store, --ca-file/--ca-path anchors are trusted beside them. Repeatable.",
        valueName: "name[@versions]"))
    var platforms: [String] = []

    @OptionGroup var storeOptions: StoresOptions

    func validate() throws {
        for text in platforms {
            do {
                _ = try PlatformSelector(parsing: text)
            } catch {
                throw ValidationError("--platform \(error.description)")
            }
        }
    }

    /// The platforms as the checking core takes them; the directory is read only when a platform is named.
    var settings: PlatformSettings {
        PlatformSettings(selectors: platforms, storesDirectory: storeOptions.location)
    }
}
