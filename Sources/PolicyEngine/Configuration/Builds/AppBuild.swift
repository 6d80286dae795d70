/// What a library's definition reads from a build (an IPA): the app's Info.plist, as shipped and as its top
/// dictionary, and the files at the bundle's top that a library may load. Each is named by its label
/// (`App.ipa!Payload/App.app/Info.plist`), which messages and pin sources carry.
public struct AppBuild: Sendable {
    public struct File: Sendable {
        public let label: String
        /// The name within the bundle (`api.cer`).
        public let name: String
        public let bytes: [UInt8]
    }

    let infoPlist: [UInt8]
    let root: [String: PropertyListValue]
    let infoPlistLabel: String
    /// The bundle itself (`App.ipa!Payload/App.app/`).
    let bundleLabel: String
    let files: [File]
}
