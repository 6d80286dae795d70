import Artifacts
import FoundationEssentials

extension BuildConfiguration {
    /// The extensions Alamofire loads (AFNetworking loads `.cer` of them): `Bundle.af.certificates`.
    static let certificateExtensions: Set<String> = [".cer", ".CER", ".crt", ".CRT", ".der", ".DER"]

    /// An iOS app archive: its Info.plist (TrustKit's `TSKConfiguration`, ATS's `NSPinnedDomains`), the certificates
    /// at its bundle's top, its version and minimum iOS. Refused when it is no IPA, its Info.plist cannot be read, or
    /// its main executable is missing or encrypted (an App Store download: FairPlay hides its code, and pinctl judges
    /// only what it can read).
    static func readIPA(_ path: String) throws(ConfigurationError) -> Read {
        let ipa: IPAArchive
        do {
            ipa = try IPAArchive.read(path, resourceExtensions: certificateExtensions)
        } catch {
            throw refusal(error)
        }
        let label = ipa.label("Info.plist")
        let root = try PropertyListDocument.dictionary(ipa.infoPlist, path: label, expected: "an app's Info.plist")
        try checkExecutable(ipa, root: root, infoPlist: label)
        let contents = AppBuild(
            infoPlist: AppBuild.InfoPlist(bytes: ipa.infoPlist, root: root, label: label), bundleLabel: ipa.label(""),
            files: ipa.resources.map { AppBuild.File(label: ipa.label($0.name), name: $0.name, bytes: $0.bytes) },
            frameworks: Dictionary(uniqueKeysWithValues: ipa.frameworks.map { framework, files in
                (framework, files.map { file in
                    AppBuild.File(label: ipa.label("Frameworks/\(framework).framework/\(file.name)"), name: file.name,
                                  bytes: file.bytes)
                })
            }),
            apk: nil)
        let minimum = root["MinimumOSVersion"]?.string.flatMap { PlatformVersion($0) }
        return Read(contents: contents, version: root["CFBundleShortVersionString"]?.string,
                    platforms: minimum.map { ["ios@\($0)-"] } ?? [], metadataLabel: label)
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
