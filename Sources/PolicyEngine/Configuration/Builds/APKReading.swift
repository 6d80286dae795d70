import Artifacts

extension BuildConfiguration {
    /// The framework attributes of the manifest pinctl reads (android.R.attr, as `aapt dump xmltree` names them).
    enum ManifestAttribute {
        static let versionName: UInt32 = 0x0101_021C
        static let minSdkVersion: UInt32 = 0x0101_020C
        static let targetSdkVersion: UInt32 = 0x0101_0270
        static let debuggable: UInt32 = 0x0101_000F
        static let networkSecurityConfig: UInt32 = 0x0101_0527
    }

    /// An Android package: its manifest's `versionName` and `uses-sdk` levels; the libraries read what they need
    /// from the archive (NSC: the manifest's `networkSecurityConfig` resource).
    static func readAPK(_ path: String) throws(ConfigurationError) -> Read {
        let apk: APKArchive
        do {
            apk = try APKArchive.read(path)
        } catch {
            throw refusal(error)
        }
        let manifest = apk.manifest
        guard manifest.name == "manifest" else {
            throw ConfigurationError(file: apk.label("AndroidManifest.xml"), message: "its root is <\(manifest.name)>, "
                + "not <manifest>")
        }
        let sdk = manifest.children.first { $0.name == "uses-sdk" }
        func level(_ id: UInt32, _ name: String) throws(ConfigurationError) -> Int? {
            guard let attribute = sdk?.attribute(id: id, namespace: BinaryXML.androidNamespace, name) else { return nil }
            // A codename (`android:minSdkVersion="Tiramisu"`) names a preview, not a level a device in the field has.
            guard case .integer(let value) = attribute.value, (1...99).contains(value) else {
                throw ConfigurationError(file: apk.label("AndroidManifest.xml"), line: sdk?.line,
                                         message: "<uses-sdk> android:\(name) is not an API level pinctl can judge")
            }
            return Int(value)
        }
        var version: String?
        if case .string(let text)? = manifest.attribute(id: ManifestAttribute.versionName,
                                                        namespace: BinaryXML.androidNamespace, "versionName")?.value {
            version = text
        }
        return Read(contents: AppBuild(infoPlist: nil, bundleLabel: path, files: [], apk: apk), version: version,
                    minSdk: try level(ManifestAttribute.minSdkVersion, "minSdkVersion"),
                    targetSdk: try level(ManifestAttribute.targetSdkVersion, "targetSdkVersion"),
                    metadataLabel: apk.label("AndroidManifest.xml"))
    }
}
