import Foundation
import FuzzSupport
import OpenSSLWrapper
import TextSyntax

/// Any bytes, as a snapshot's `apple-ct-logs.cnf`.
enum CTLogListFuzz {
    static let path = "stores/apple-ct-logs.cnf"
    /// The longest refusal: the file, a line number and a sentence naming at most a short excerpt.
    static let longestRefusal = 400

    static func check(_ bytes: [UInt8]) {
        let logs: CTLogList
        do {
            logs = try CTLogList(bytes: bytes, path: path)
        } catch {
            let message = error.description
            Fuzz.require(message.hasPrefix(path + ":"), "a rejection that does not name the file: \(message)")
            Fuzz.require(message.count <= longestRefusal, "a refusal of \(message.count) characters: \(message)")
            let line = message.dropFirst(path.count + 1).prefix { $0.isNumber }
            if let number = Int(line) {
                Fuzz.require(number <= Fuzz.maximumLine(of: bytes), "line \(number) of a shorter file: \(message)")
            }
            return
        }
        let trusted = logs.logs.values.sorted { $0.keyBase64 < $1.keyBase64 }
        for log in trusted {
            Fuzz.require(Data(base64Encoded: log.keyBase64).map { sha256($0) } == log.id, "an id not the key's SHA-256")
            for text in [log.description, log.operatorName] {
                Fuzz.require(UntrustedText.isPrintable(text) && text.unicodeScalars.count <= 256,
                             "a description or operator pinctl should have refused: \(text.debugDescription)")
            }
        }
        Fuzz.require(UntrustedText.isPrintable(logs.source), "a source pinctl should have refused")
        // Written back as the builder writes a list, the trusted logs read back the same.
        let again: CTLogList
        do {
            again = try CTLogList(bytes: Array(written(logs, trusted).utf8), path: path)
        } catch {
            Fuzz.require(false, "the list written back does not read: \(error)")
            return
        }
        let back = again.logs.values.sorted { $0.keyBase64 < $1.keyBase64 }
        Fuzz.require(again.dateText == logs.dateText && again.source == logs.source, "list_date or list_source changed")
        Fuzz.require(back.map(\.keyBase64) == trusted.map(\.keyBase64), "the logs changed")
        Fuzz.require(back.map(\.description) == trusted.map(\.description), "a description changed")
        Fuzz.require(back.map(\.operatorName) == trusted.map(\.operatorName), "an operator changed")
        for (first, second) in zip(trusted, back) {
            Fuzz.require(first.readOnlySince == second.readOnlySince && first.retiredSince == second.retiredSince
                && first.shardStart == second.shardStart && first.shardEnd == second.shardEnd, "a time changed")
        }
    }

    /// The list of `trusted` as scripts/build_stores.py writes one (`conf_value`: \ " ' $ # escaped).
    static func written(_ logs: CTLogList, _ trusted: [CTLogList.Log]) -> String {
        func escaped(_ text: String) -> String {
            var result = ""
            for scalar in text.unicodeScalars {
                if "\\\"'$#".unicodeScalars.contains(scalar) { result += "\\" }
                result.unicodeScalars.append(scalar)
            }
            return result
        }
        let names = trusted.indices.map { "log\($0 + 1)" }
        var text = "list_date = \(logs.dateText)\nlist_source = \(escaped(logs.source))\n"
            + "enabled_logs = \(names.joined(separator: ","))\nuntrusted_logs = \n"
        for (name, log) in zip(names, trusted) {
            text += "\n[\(name)]\ndescription = \(escaped(log.description))\nkey = \(log.keyBase64)\n"
                + "operator = \(escaped(log.operatorName))\n"
            let times = [("readonly", log.readOnlySince), ("retired", log.retiredSince),
                         ("shard_start", log.shardStart), ("shard_end", log.shardEnd)]
            for (key, time) in times { if let time { text += "\(key) = \(timeText(time))\n" } }
        }
        return text
    }

    /// `2025-06-01T00:00:00Z`, years zero-padded to four digits.
    static func timeText(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int32, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))T"
            + "\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))Z"
    }

    static func sha256(_ data: Data) -> [UInt8] { DigestAlgorithm.sha256.digest([UInt8](data)) }
}

@main
enum Main {
    static func main() { Fuzz.main(CTLogListFuzz.check) }
}
