import ArgumentParser
import Checking
import FoundationEssentials
import PolicyEngine

/// `--platform NAME[@VERSIONS]` (repeatable) and where the snapshots are: judge on those platform versions' stores
/// (DESIGN §12).
struct PlatformOptions: ParsableArguments {
    @Option(name: .customLong("platform"), help: ArgumentHelp(
        "Judge on each version of this platform's root store (android@24-36, ios@17, macos, mozilla): its roots "
            + "stand for the system store, --ca-file/--ca-path anchors are trusted beside them. Repeatable. `system` "
            + "alone judges as without --platform (OpenSSL's default store), whatever the policy file names.",
        valueName: "name[@versions]"))
    var platforms: [String] = []

    @Option(name: .customLong("target-sdk"), help: ArgumentHelp(
        "The Android API level the app targets, for apps the policy file gives none: from API 24, the roots given with "
            + "--platform as the user's (--ca-file) count only for an app targeting 23 or lower (default: 24 or later).",
        valueName: "level"))
    var targetSdk: Int?

    @OptionGroup var storeOptions: StoresOptions

    func validate() throws {
        if let targetSdk, !(1...99).contains(targetSdk) {
            throw ValidationError("--target-sdk \(targetSdk): not an Android API level (1 to 99)")
        }
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
        PlatformSettings(selectors: platforms, storesDirectory: storeOptions.location, targetSdk: targetSdk,
                         readAhead: CommandLineReadAhead.current)
    }
}
