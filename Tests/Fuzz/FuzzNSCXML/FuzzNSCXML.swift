import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as Android's `network_security_config.xml`, read as a release build and as a debuggable one.
///
/// The file stands in the NSC fixtures' `res/xml/`, so `@raw/NAME` reaches their real certificates; no `fuzz_debug.xml`
/// lies beside it, so a debuggable read has no companion file to add.
enum NSCXMLFuzz {
    static let path = Fuzz.repositoryPath("Tests/Fixtures/nsc/res/xml/fuzz.xml")

    static func check(_ bytes: [UInt8]) {
        let release = read(bytes, debuggable: false)
        let debug = read(bytes, debuggable: true)
        // A release build skips debug-overrides unread; otherwise both read the same elements.
        Fuzz.require(debug == nil || release != nil, "accepted as a debuggable build, refused as a release one")
        guard let release else { return }
        PortableInvariants.requireExportReadsBack(
            NSCPolicy(config: release), as: "network_security_config.xml",
            write: { (policy, losses) throws(ExportError) in try NSCXMLWriter.write(policy, losses: &losses) },
            read: { (written) throws(ConfigurationError) in
                NSCPolicy(config: try NSCXMLReader.read(written, path: path))
            })
    }

    /// The config, or nil once the rejection is checked: it names the file and a line the file has.
    private static func read(_ bytes: [UInt8], debuggable: Bool) -> NetworkSecurityConfig? {
        do {
            return try NSCXMLReader.read(bytes, path: path, debuggable: debuggable)
        } catch {
            Fuzz.require(error.file == path, "a rejection that does not name the file: \(error)")
            let lines = Fuzz.maximumLine(of: bytes)
            Fuzz.require(error.line.map { (1...lines).contains($0) } ?? false,
                         "a rejection without a line of the file's \(lines): \(error)")
            return nil
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(NSCXMLFuzz.check) }
}
