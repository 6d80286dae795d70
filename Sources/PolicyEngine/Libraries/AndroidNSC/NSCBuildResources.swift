import Artifacts
import OpenSSLWrapper

/// A build's Network Security Configuration: where its `@raw/` anchors come from, and a configuration resource read
/// straight from an APK (DESIGN §14).
extension NSCXMLReader {
    /// Reads the configuration resource `xml/NAME` of the APK at `apk` as a `debuggable` build of it reads it:
    /// compiled, its `@raw/` anchors and `NAME_debug` companion resolved through the APK's resource table.
    public static func read(apk: String, resource name: String, debuggable: Bool) throws(ConfigurationError)
        -> NetworkSecurityConfig
    {
        let archive: APKArchive
        do {
            archive = try APKArchive.read(apk)
        } catch {
            throw BuildConfiguration.refusal(error)
        }
        guard let id = archive.resources.id(type: "xml", name: name) else {
            throw ConfigurationError(file: apk, message: "no resource xml/\(name) in resources.arsc")
        }
        return try NSCBuildReading.config(archive, id: id, named: "xml/\(name)", at: apk, debuggable: debuggable)
    }

    /// Where `@raw/` anchors come from: the `res/` folder beside the file, or a build's resources, `lookup` giving
    /// the files of a resource (`raw`, `my_ca`) by their labels, or why it cannot.
    public enum Resources: Sendable {
        case folder
        case build(lookup: @Sendable (_ type: String, _ name: String)
            -> Result<[(label: String, bytes: [UInt8])], ConfigurationError>)
    }

    /// Why a build's resource gives no certificates.
    struct ResourceFailure: Error {
        let message: String
    }

    /// The certificates of resource `type/name` through a build's `lookup`. Every configuration's file (raw-v24/…)
    /// must hold the same ones: which one a device loads depends on the device, and pinctl judges one app.
    static func certificates(
        of lookup: @Sendable (String, String) -> Result<[(label: String, bytes: [UInt8])], ConfigurationError>,
        _ type: String, _ name: String
    ) throws(ResourceFailure) -> [X509Certificate] {
        let files: [(label: String, bytes: [UInt8])]
        switch lookup(type, name) {
        case .failure(let failure): throw ResourceFailure(message: failure.message)
        case .success(let found): files = found
        }
        var certificates: [[X509Certificate]] = []
        for file in files {
            do {
                certificates.append(try CertificateParser.certificates(from: file.bytes))
            } catch {
                throw ResourceFailure(message: "\(file.label): \(error.reason)")
            }
        }
        guard let first = certificates.first, certificates.allSatisfy({ $0 == first }) else {
            throw ResourceFailure(message: files.isEmpty ? "no file in the build"
                : "\(files.map(\.label).joined(separator: " and ")) differ, and which one a device loads depends on "
                    + "its configuration")
        }
        return first
    }
}
