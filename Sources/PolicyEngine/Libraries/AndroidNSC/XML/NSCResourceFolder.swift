import FileAccess
import OpenSSLWrapper

/// A configuration's resources in a source tree (`res/xml/network_security_config.xml` beside `res/raw/`), as aapt
/// finds them when it builds the app.
extension NSCXMLReader {
    /// `@raw/NAME` beside `path`: every certificate (PEM or DER) of the one file `NAME.*` in `res/raw/`.
    static func folderCertificates(_ type: String, _ name: String, beside path: String) throws(ResourceFailure)
        -> [X509Certificate]
    {
        let folder = Path.join(resourcesFolder(of: path), type)
        let entries = (try? FileSystem.entries(ofDirectory: folder)) ?? []
        // aapt names a resource by its file name up to the first dot.
        let files = entries.filter { $0 == name || $0.hasPrefix(name + ".") }
        guard let file = files.first else { throw ResourceFailure(message: "no file \(name).* in \(folder)") }
        guard files.count == 1 else {
            throw ResourceFailure(message: "\(files.joined(separator: " and ")) in \(folder) are one resource "
                + "(aapt refuses the duplicate)")
        }
        do {
            return try CertificateParser.certificates(atPath: Path.join(folder, file))
        } catch {
            throw ResourceFailure(message: error.description)
        }
    }

    /// `getIdentifier(entryName + "_debug", "xml", …)`: the resource named after this one plus `_debug`, in the same
    /// folder (a resource's name is its file name up to the first dot).
    static func debugCompanion(of path: String) -> String? {
        let name = Path.lastComponent(of: path)
        let stem = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let companion = Path.join(Path.parent(of: path), stem + "_debug.xml")
        return (try? FileSystem.kind(of: companion)) == .regular ? companion : nil
    }

    /// The `res/` folder of a file in `res/xml/`, however the path is written (`network_security_config.xml` run
    /// from inside `res/xml/` included).
    static func resourcesFolder(of path: String) -> String {
        let folder = Path.parent(of: path)
        let last = Path.lastComponent(of: folder)
        return last == "." || last == ".." ? Path.join(folder, "..") : Path.parent(of: folder)
    }
}
