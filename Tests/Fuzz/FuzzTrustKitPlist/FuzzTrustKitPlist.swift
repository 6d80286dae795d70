import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as TrustKit's configuration: an Info.plist or the `TSKConfiguration` dictionary alone, as an XML or
/// binary property list or as JSON (the reader tells them apart by the bytes, not by the file name).
enum TrustKitPlistFuzz {
    static let path = "Info.plist"

    static func check(_ bytes: [UInt8]) {
        checkTrustKit(bytes)
        checkATS(bytes)
    }

    static func checkTrustKit(_ bytes: [UInt8]) {
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

/// The same bytes as App Transport Security's NSPinnedDomains in an Info.plist: refused naming the file, or read; an
/// app read is exported as its own Info.plist, which reads back as the same entries.
extension TrustKitPlistFuzz {
    static func checkATS(_ bytes: [UInt8]) {
        let policy: ATSPolicy
        do {
            policy = try ATSInfoPlistReader.read(bytes, path: path, hosts: []).policy
        } catch {
            Fuzz.require(error.file == path, "a rejection that does not name the file: \(error)")
            return
        }
        var losses = ExportLosses()
        guard case .file(let written)? = try? NativeExport.write(policy, as: .atsPlist, losses: &losses) else { return }
        do {
            let again = try ATSInfoPlistReader.read(written, path: path, hosts: []).policy
            func shape(_ policy: ATSPolicy) -> [String] {
                policy.domains.map { "\($0.name) \($0.includesSubdomains) \($0.leafIdentities?.map(\.hash) ?? [[0]]) "
                    + "\($0.caIdentities?.map(\.hash) ?? [[0]])" }.sorted()
            }
            Fuzz.require(shape(again) == shape(policy), "the exported Info.plist reads back otherwise")
        } catch {
            Fuzz.require(false, "the exported Info.plist cannot be read back: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(TrustKitPlistFuzz.check) }
}
