import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as TrustKit's configuration: an Info.plist or the `TSKConfiguration` dictionary alone, as an XML or
/// binary property list or as JSON (the reader tells them apart by the bytes, not by the file name).
enum TrustKitPlistFuzz {
    static let path = "Info.plist"

    static func check(_ bytes: [UInt8]) {
        let policy: TrustKitPolicy
        do {
            policy = try TrustKitConfigurationReader.read(bytes, path: path, hosts: []).policy
        } catch {
            Fuzz.require(error.file == path, "a rejection that does not name the file: \(error)")
            let lines = Fuzz.maximumLine(of: bytes)
            if let line = error.line {
                Fuzz.require((1...lines).contains(line), "line \(line) of a file of \(lines) line(s): \(error)")
            }
            return
        }
        // pinctl exports TrustKit's configuration as a plist and as JSON; either reads back as the same domains.
        for json in [false, true] {
            PortableInvariants.requireExportReadsBack(
                policy, as: json ? "TrustKit JSON" : "TrustKit plist", ordered: false,
                write: { (policy, losses) throws(ExportError) in
                    try TrustKitConfigurationWriter.write(policy, json: json, losses: &losses)
                },
                read: { (written) throws(ConfigurationError) in
                    try TrustKitConfigurationReader.read(written, path: path, hosts: []).policy
                })
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(TrustKitPlistFuzz.check) }
}
