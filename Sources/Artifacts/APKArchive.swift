import Archives

/// An Android package (APK) as aapt and the Gradle plugin build it: `AndroidManifest.xml` and `res/…` in binary XML,
/// `resources.arsc` naming every resource, the other resources as shipped. Read as data: which attributes and
/// elements pin is PolicyEngine's business.
public struct APKArchive: Sendable {
    public let path: String
    public let manifest: BinaryXMLElement
    public let resources: ResourceTable
    /// The names of the archive's file entries, in its order.
    public let entries: [String]
    private let bytes: [UInt8]

    /// `app.apk!res/xml/network_security_config.xml`: an entry named in messages and pin sources.
    public func label(_ entry: String) -> String { path + "!" + entry }

    /// The entry at `entry` (`res/raw/ca.pem`), nil when the archive has none: read when asked for, as an app's
    /// resources may be far larger than what pinning needs of them.
    public func file(_ entry: String) throws(ArchiveError) -> [UInt8]? {
        try files { $0 == entry }[entry]
    }

    /// The entries `wanted` answers true for, read in one pass over the archive.
    public func files(_ wanted: (String) -> Bool) throws(ArchiveError) -> [String: [UInt8]] {
        try ZipArchive.read(bytes, label: path, wanting: wanted).contents
    }

    public static func read(_ path: String) throws(ArchiveError) -> APKArchive {
        let bytes = try ArchiveFile.read(path)
        let archive = try ZipArchive.read(bytes, label: path) { name in
            name == "AndroidManifest.xml" || name == "resources.arsc"
        }
        if archive.entries.contains(where: { $0.name == "BundleConfig.pb" || $0.name.hasSuffix("/resources.pb") }) {
            throw ArchiveError(path, reason: "is an Android App Bundle (AAB): its resources are protocol buffers, "
                + "which pinctl does not read; build the APK (bundletool build-apks --mode=universal) and import that")
        }
        guard let manifestBytes = archive.contents["AndroidManifest.xml"] else {
            throw ArchiveError(path, entry: "AndroidManifest.xml", reason: "is missing: not an APK")
        }
        let manifest: BinaryXMLElement
        do {
            manifest = try BinaryXML.parse(manifestBytes)
        } catch {
            throw ArchiveError(path, entry: "AndroidManifest.xml", reason: error.description)
        }
        var table = ResourceTable.empty
        if let tableBytes = archive.contents["resources.arsc"] {
            do {
                table = try ResourceTable.parse(tableBytes)
            } catch {
                throw ArchiveError(path, entry: "resources.arsc", reason: error.description)
            }
        }
        return APKArchive(path: path, manifest: manifest, resources: table,
                          entries: archive.entries.filter { !$0.isDirectory }.map(\.name), bytes: bytes)
    }
}
