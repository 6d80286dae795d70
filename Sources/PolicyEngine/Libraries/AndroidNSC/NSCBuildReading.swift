import Archives
import Artifacts
import XMLTree

/// An APK's Network Security Configuration, as the device reads it (DESIGN §14): the manifest's
/// `<application android:networkSecurityConfig>` resolved through `resources.arsc` to the compiled XML file, its
/// `@raw/` anchors to the certificate files the same way, `android:debuggable` deciding `debug-overrides` (and the
/// `NAME_debug` resource, `XmlConfigSource`). An app with no configuration pins nothing through NSC: nil.
enum NSCBuildReading {
    static func read(_ apk: APKArchive, hosts: [String]) throws(ConfigurationError) -> NativeConfiguration.Reading? {
        let manifestLabel = apk.label("AndroidManifest.xml")
        guard let application = apk.manifest.children.first(where: { $0.name == "application" }) else { return nil }
        let android = BinaryXML.androidNamespace
        guard let attribute = application.attribute(id: BuildConfiguration.ManifestAttribute.networkSecurityConfig,
                                                    namespace: android, "networkSecurityConfig") else { return nil }
        guard case .reference(let id) = attribute.value else {
            throw ConfigurationError(file: manifestLabel, line: application.line, message: "<application> "
                + "android:networkSecurityConfig is not a resource reference (@xml/…)")
        }
        var debuggable = false
        if case .boolean(let flag)? = application.attribute(
            id: BuildConfiguration.ManifestAttribute.debuggable, namespace: android, "debuggable")?.value {
            debuggable = flag
        }
        let config = try self.config(apk, id: id, named: "android:networkSecurityConfig", at: manifestLabel,
                                     debuggable: debuggable)
        let policy = NSCPolicy(config: config, debuggable: debuggable, hosts: hosts)
        return .init(policy: policy, notes: config.notes, entryForm: .config([]))
    }

    /// The configuration resource `id` of `apk` (`named` and `place` say who names it, for errors), as a device of
    /// that build reads it.
    static func config(_ apk: APKArchive, id: UInt32, named: String, at place: String, debuggable: Bool)
        throws(ConfigurationError) -> NetworkSecurityConfig
    {
        let (root, path) = try xml(id, in: apk, named: named, at: place)
        let resources = apk.resources
        return try NSCXMLReader.read(
            root, path: path, debuggable: debuggable, resources: .build(lookup: { type, name in
                guard let id = resources.id(type: type, name: name) else {
                    return .failure(ConfigurationError(file: apk.path, message: "no resource \(type)/\(name) in "
                        + "resources.arsc"))
                }
                var files: [(label: String, bytes: [UInt8])] = []
                for entry in resources.files(of: id) {
                    let bytes: [UInt8]?
                    do throws(ArchiveError) {
                        bytes = try apk.file(entry)
                    } catch {
                        return .failure(BuildConfiguration.refusal(error))
                    }
                    guard let bytes else {
                        return .failure(ConfigurationError(file: apk.path, message: "resources.arsc names "
                            + "\(entry), which the archive lacks"))
                    }
                    files.append((apk.label(entry), bytes))
                }
                return .success(files)
            }),
            debugCompanion: { () throws(ConfigurationError) in
                // getIdentifier(entryName + "_debug", "xml", …)
                guard let name = resources.resource(id)?.name,
                      let companion = resources.id(type: "xml", name: name + "_debug") else { return nil }
                return try xml(companion, in: apk, named: "\(name)_debug", at: place)
            })
    }

    /// The compiled XML resource `id`, as the text reader's tree, and its label.
    private static func xml(_ id: UInt32, in apk: APKArchive, named: String, at place: String)
        throws(ConfigurationError) -> (root: XMLElement, path: String)
    {
        let files = apk.resources.files(of: id)
        guard let entry = files.first else {
            throw ConfigurationError(file: place, message: "\(named) names resource 0x\(String(id, radix: 16)), "
                + "which resources.arsc does not give a file")
        }
        // One file for every configuration: which one a device reads would depend on the device.
        guard files.count == 1 else {
            throw ConfigurationError(file: place, message: "\(named) names a resource of \(files.count) files by "
                + "configuration (\(files.joined(separator: ", "))): pinctl judges one configuration")
        }
        let read: [UInt8]?
        do throws(ArchiveError) {
            read = try apk.file(entry)
        } catch {
            throw BuildConfiguration.refusal(error)
        }
        guard let bytes = read else {
            throw ConfigurationError(file: apk.label(entry), message: "is missing, though resources.arsc names it")
        }
        do {
            return (try BinaryXML.parse(bytes).xmlElement(resources: apk.resources), apk.label(entry))
        } catch {
            throw ConfigurationError(file: apk.label(entry), message: "not Android binary XML: \(error.description)")
        }
    }
}
