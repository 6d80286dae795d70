import Artifacts
import FoundationEssentials

/// What an iOS app archive ships for pinning (DESIGN §14): each library configured in its Info.plist (TrustKit's
/// `TSKConfiguration`, ATS's `NSPinnedDomains`), the app's version and the oldest iOS it installs on, and the
/// certificates at its bundle's top, which AFNetworking's `certificatesInBundle:` and Alamofire's
/// `Bundle.af.certificates` load. Those need the hosts they guard, which the bundle does not say: they are named for
/// the caller to refuse or import, never guessed.
public struct IPAConfiguration: Sendable {
    /// One library found, read as the library reads it.
    public struct App: Sendable {
        public let library: Library
        public let reading: NativeConfiguration.Reading
    }

    public let apps: [App]
    /// `CFBundleShortVersionString`, when the plist gives it.
    public let version: String?
    /// `ios@MINIMUMOS-` from `MinimumOSVersion`, when the plist gives it.
    public let platforms: [String]
    /// The certificates at the bundle's top (`App.ipa!Payload/App.app/api.cer`), which no Info.plist key configures.
    public let bundledCertificates: [String]
    /// Where the Info.plist was read from, for messages.
    public let infoPlist: String

    /// The extensions Alamofire loads (AFNetworking loads `.cer` of them): `Bundle.af.certificates`.
    static let certificateExtensions: Set<String> = [".cer", ".CER", ".crt", ".CRT", ".der", ".DER"]

    /// Reads the IPA at `path` for `libraries` (nil: every library a build can configure): refused when it is no
    /// IPA, its Info.plist cannot be read, or its main executable is missing or encrypted (an App Store download:
    /// FairPlay hides its code, and pinctl judges only what it can read).
    public static func read(_ path: String, libraries: [Library]? = nil, settings: NativeConfiguration.Settings)
        throws(ConfigurationError) -> IPAConfiguration
    {
        let ipa: IPAArchive
        do {
            ipa = try IPAArchive.read(path, resourceExtensions: certificateExtensions)
        } catch {
            throw ConfigurationError(file: error.archive + (error.entry.map { "!" + $0 } ?? ""), message: error.reason)
        }
        let label = ipa.label("Info.plist")
        let root = try PropertyListDocument.dictionary(ipa.infoPlist, path: label, expected: "an app's Info.plist")
        try checkExecutable(ipa, root: root, infoPlist: label)
        let build = AppBuild(infoPlist: ipa.infoPlist, root: root, infoPlistLabel: label, bundleLabel: ipa.label(""),
                             files: ipa.resources.map {
            AppBuild.File(label: ipa.label($0.name), name: $0.name, bytes: $0.bytes)
        })
        var apps: [App] = []
        for definition in LibraryRegistry.all where libraries?.contains(definition.library) ?? true {
            guard let read = definition.readBuild, let reading = try read(build, settings) else { continue }
            apps.append(App(library: definition.library, reading: reading))
        }
        let minimum = root["MinimumOSVersion"]?.string.flatMap { PlatformVersion($0) }
        return IPAConfiguration(
            apps: apps, version: root["CFBundleShortVersionString"]?.string,
            platforms: minimum.map { ["ios@\($0)-"] } ?? [],
            bundledCertificates: build.files.map(\.label), infoPlist: label)
    }

    /// The policy of `library` in the IPA at `path` (a policy file's `build:`), refused when the build configures
    /// none.
    public static func policy(_ path: String, library: Library, settings: NativeConfiguration.Settings)
        throws(ConfigurationError) -> any TrustPolicy
    {
        let build = try read(path, libraries: [library], settings: settings)
        guard let app = build.apps.first else {
            throw ConfigurationError(file: path, message: "configures no \(library.displayName) pinning pinctl reads"
                + (library.definition.readBuild == nil ? " (pinctl reads no \(library.displayName) pins from an .ipa)"
                    : ""))
        }
        return app.reading.policy
    }

    /// Refuses an IPA whose main executable (`CFBundleExecutable`) is missing, no Mach-O, or encrypted.
    private static func checkExecutable(_ ipa: IPAArchive, root: [String: PropertyListValue], infoPlist: String)
        throws(ConfigurationError)
    {
        guard let name = root["CFBundleExecutable"]?.string, !name.isEmpty, !name.contains("/") else {
            throw ConfigurationError(file: infoPlist, keyPath: "CFBundleExecutable", message: "names no main "
                + "executable: pinctl cannot tell whether the app is encrypted")
        }
        let executable: [UInt8]?
        do {
            executable = try ipa.file(name)
        } catch {
            throw ConfigurationError(file: ipa.label(name), message: error.reason)
        }
        guard let executable else {
            throw ConfigurationError(file: ipa.label(name), message: "is missing, though the Info.plist names it "
                + "the main executable")
        }
        let encrypted: [String]
        do {
            encrypted = try MachOEncryption.encryptedSlices(executable)
        } catch {
            throw ConfigurationError(file: ipa.label(name), message: error.description)
        }
        guard encrypted.isEmpty else {
            throw ConfigurationError(file: ipa.label(name), message: "is encrypted (\(encrypted.joined(separator: ", ")) "
                + "slice, cryptid set), as the App Store ships apps: what it pins cannot be read from it; import the "
                + "IPA Xcode exports (development, ad hoc or before upload)")
        }
    }
}
