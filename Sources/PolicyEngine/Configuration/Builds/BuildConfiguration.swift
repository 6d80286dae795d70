import Archives
import Artifacts

/// What a build ships for pinning (DESIGN §14), an iOS app archive (`.ipa`) or an Android package (`.apk`): each
/// library it configures, read as the library reads what ships, and what the build says of the app: its version, the
/// platforms it installs on, the API levels it targets. Certificates in an IPA's bundle need the hosts they guard,
/// which the bundle does not say: they are named for the caller to refuse or import, never guessed.
public struct BuildConfiguration: Sendable {
    /// One library found, read as the library reads it.
    public struct App: Sendable {
        public let library: Library
        public let reading: NativeConfiguration.Reading
    }

    public let apps: [App]
    /// `CFBundleShortVersionString`, or the manifest's `versionName`, when the build gives one.
    public let version: String?
    /// `ios@MINIMUMOS-` from an Info.plist's `MinimumOSVersion` (an APK's come from `minSdk`, DESIGN §12).
    public let platforms: [String]
    /// An APK's `uses-sdk` levels.
    public let minSdk: Int?
    public let targetSdk: Int?
    /// The certificates at an IPA's bundle top (`App.ipa!Payload/App.app/api.cer`), which no Info.plist key configures.
    public let bundledCertificates: [String]
    /// The entry where the build describes itself (`App.ipa!Payload/App.app/Info.plist`,
    /// `app.apk!AndroidManifest.xml`), which messages about the build as a whole name.
    public let metadataLabel: String

    /// Reads the build at `path` for `libraries` (nil: every library a build can configure), by its kind: an `.ipa`
    /// or an `.apk` (an `.aab` is refused with the reason).
    public static func read(_ path: String, libraries: [Library]? = nil, settings: NativeConfiguration.Settings)
        throws(ConfigurationError) -> BuildConfiguration
    {
        try read(path, libraries: libraries, settings: settings, files: BuildFiles())
    }

    /// As above, the archive read once however many apps of a policy file name it (`files`).
    static func read(_ path: String, libraries: [Library]?, settings: NativeConfiguration.Settings,
                     files: BuildFiles) throws(ConfigurationError) -> BuildConfiguration
    {
        let build = try files.read(path)
        var apps: [App] = []
        for definition in LibraryRegistry.all where libraries?.contains(definition.library) ?? true {
            guard let read = definition.readBuild, let reading = try read(build.contents, settings) else { continue }
            apps.append(App(library: definition.library, reading: reading))
        }
        return BuildConfiguration(apps: apps, version: build.version, platforms: build.platforms,
                                  minSdk: build.minSdk, targetSdk: build.targetSdk,
                                  bundledCertificates: build.contents.files.map(\.label),
                                  metadataLabel: build.metadataLabel)
    }

    /// A build read, before any library looks at it.
    struct Read: Sendable {
        let contents: AppBuild
        var version: String?
        var platforms: [String] = []
        var minSdk: Int?
        var targetSdk: Int?
        let metadataLabel: String
    }

    /// The kinds of build `read` takes (or refuses with the reason), by extension.
    public static let extensions = [".ipa", ".apk", ".aab"]

    /// Whether `path` names a build by its extension: `config import` reads it as one.
    public static func isBuild(_ path: String) -> Bool {
        let lowered = path.lowercased()
        return extensions.contains { lowered.hasSuffix($0) }
    }

    static func build(_ path: String) throws(ConfigurationError) -> Read {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".ipa") { return try readIPA(path) }
        if lowered.hasSuffix(".apk") { return try readAPK(path) }
        if lowered.hasSuffix(".aab") {
            throw ConfigurationError(file: path, message: "an Android App Bundle (AAB): its resources are protocol "
                + "buffers, which pinctl does not read; build the APK (bundletool build-apks --mode=universal) and "
                + "give that")
        }
        throw ConfigurationError(file: path, message: "not a build pinctl reads: an iOS app archive (.ipa) or an "
            + "Android package (.apk)")
    }

    /// An archive's refusal, at the entry at fault.
    static func refusal(_ error: ArchiveError) -> ConfigurationError {
        ConfigurationError(file: error.archive + (error.entry.map { "!" + $0 } ?? ""), message: error.reason)
    }
}
