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

    /// Reads the IPA at `path`: refused when it is no IPA, its Info.plist cannot be read, or its main executable is
    /// missing or encrypted (an App Store download: FairPlay hides its code, and pinctl judges only what it can read).
    public static func read(_ path: String, settings: NativeConfiguration.Settings) throws(ConfigurationError)
        -> IPAConfiguration
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
        var apps: [App] = []
        for definition in LibraryRegistry.all {
            guard let read = definition.readInfoPlist,
                  let reading = try read(ipa.infoPlist, root, label, settings) else { continue }
            apps.append(App(library: definition.library, reading: reading))
        }
        let minimum = root["MinimumOSVersion"]?.string.flatMap { PlatformVersion($0) }
        return IPAConfiguration(
            apps: apps, version: root["CFBundleShortVersionString"]?.string,
            platforms: minimum.map { ["ios@\($0)-"] } ?? [],
            bundledCertificates: ipa.resources.map { ipa.label($0.name) }, infoPlist: label)
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
