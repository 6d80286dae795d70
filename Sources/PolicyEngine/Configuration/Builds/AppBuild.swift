import Artifacts

/// What a library's definition reads from a build: an IPA's Info.plist (as shipped and as its top dictionary) and
/// the files at its bundle's top that a library may load, or an APK's archive. Each piece is named by its label
/// (`App.ipa!Payload/App.app/Info.plist`), which messages and pin sources carry.
public struct AppBuild: Sendable {
    public struct File: Sendable {
        public let label: String
        /// The name within the bundle (`api.cer`).
        public let name: String
        public let bytes: [UInt8]
    }

    struct InfoPlist: Sendable {
        let bytes: [UInt8]
        let root: [String: PropertyListValue]
        let label: String
    }

    /// An IPA's; nil for an APK.
    let infoPlist: InfoPlist?
    /// The bundle itself (`App.ipa!Payload/App.app/`), or the APK.
    let bundleLabel: String
    /// An IPA's files at the bundle's top; none for an APK.
    let files: [File]
    /// An IPA's embedded frameworks by name (`AFNetworking`), each with the files at its own bundle's top.
    var frameworks: [String: [File]] = [:]
    /// An APK's archive; nil for an IPA.
    let apk: APKArchive?
}
