import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as a target on the command line or in a policy file: host, host:port, [v6]:port, https:// URL.
enum TargetSyntaxFuzz {
    static func check(_ bytes: [UInt8]) {
        // Arguments reach pinctl as Strings; invalid UTF-8 arrives repaired the same way.
        let text = String(decoding: bytes, as: UTF8.self)
        let target: Target
        do {
            target = try Target(parsing: text)
        } catch {
            Fuzz.require(!error.description.isEmpty, "a rejection without a reason")
            return
        }
        Fuzz.require(!target.host.isEmpty, "an empty host from \(text.debugDescription)")
        Fuzz.require(target.port > 0, "port 0 from \(text.debugDescription)")
        Fuzz.require(
            !target.host.contains("[") && !target.host.contains("]"),
            "host \(target.host.debugDescription) keeps its brackets")
        // What pinctl prints for a target, and the URL of it, name the same server again.
        requireSameServer(target, reading: target.description)
        requireSameServer(target, reading: "https://\(target.description)/")
    }

    private static func requireSameServer(_ target: Target, reading text: String) {
        do {
            let again = try Target(parsing: text)
            Fuzz.require(
                again.host == target.host && again.port == target.port,
                "\(target.original.debugDescription) -> \(text.debugDescription) -> \(again.description)")
        } catch {
            Fuzz.require(false, "\(target.original.debugDescription) -> \(text.debugDescription) is rejected: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(TargetSyntaxFuzz.check) }
}
