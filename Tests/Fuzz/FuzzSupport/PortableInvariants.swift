import Foundation
import PolicyEngine

/// What holds for every policy a native reader accepts: exported to its own format (`config export`), it reads back
/// as the same portable rules. A reader and a writer that disagree would make an export change what an app pins.
public enum PortableInvariants {
    /// A rule as it can be compared: the export keeps each pin once, and an excluded host's expiration is moot.
    struct Summary: Hashable, CustomStringConvertible {
        let domain: String
        let scope: PortablePolicy.Scope
        let pins: [String]
        let expiration: Date?
        let enforced: Bool
        let excluded: Bool

        init(_ rule: PortablePolicy.Rule) {
            domain = rule.domain
            scope = rule.scope
            var pins: [String] = []
            for pin in rule.allKeyPins where !pins.contains(pin.text) { pins.append(pin.text) }
            self.pins = pins
            expiration = rule.excluded ? nil : rule.expiration
            enforced = rule.enforced
            excluded = rule.excluded
        }

        var description: String {
            "\(scope.rawValue) \(domain.debugDescription) \(pins) expiration \(expiration.map(Timestamp.day) ?? "none")"
                + (enforced ? "" : " report-only") + (excluded ? " excluded" : "")
        }
    }

    /// Writes `policy` with `write` and reads the result with `read`; the rules must be the same, in the same order
    /// unless `ordered` is false (a TrustKit dictionary has none). A policy the writer refuses is not checked.
    public static func requireExportReadsBack(
        _ policy: any PortableConvertible, as format: String, ordered: Bool = true,
        write: (PortablePolicy, inout ExportLosses) throws(ExportError) -> [UInt8],
        read: ([UInt8]) throws(ConfigurationError) -> any PortableConvertible
    ) {
        var losses = ExportLosses()
        guard let portable = try? policy.portable(losses: &losses), let written = try? write(portable, &losses) else {
            return
        }
        let again: PortablePolicy
        do {
            var ignored = ExportLosses()
            again = try read(written).portable(losses: &ignored)
        } catch {
            let text = String(decoding: written, as: UTF8.self)
            Fuzz.require(false, "the \(format) export does not read back: \(error)\n\(text)")
            return
        }
        var before = portable.rules.map(Summary.init)
        var after = again.rules.map(Summary.init)
        if !ordered {
            before.sort { $0.description < $1.description }
            after.sort { $0.description < $1.description }
        }
        Fuzz.require(before == after, "the \(format) export reads back as other rules:\n\(before)\n->\n\(after)\n"
            + String(decoding: written, as: UTF8.self))
    }
}
