import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as each file OkHttp's pins are read from: Kotlin, Java, and pinctl's text list (the file name's suffix
/// picks the form, so every input is read three times).
enum OkHttpSourceFuzz {
    static let forms: [(path: String, format: NativeExport.Format)] = [
        ("Pinning.kt", .okhttpKotlin), ("Pinning.java", .okhttpJava), ("pins.txt", .okhttpText),
    ]

    static func check(_ bytes: [UInt8]) {
        let lines = Fuzz.maximumLine(of: bytes)
        for (path, _) in forms {
            let policy: OkHttpPolicy
            do {
                policy = try OkHttpSourceReader.read(bytes, path: path, hosts: []).policy
            } catch {
                Fuzz.require(error.file == path, "a rejection that does not name the file: \(error)")
                if let line = error.line {
                    Fuzz.require((1...lines).contains(line), "line \(line) of a file of \(lines) line(s): \(error)")
                }
                continue
            }
            for entry in policy.entries {
                // A pin read from constants names them as well: `.configuration(path, line, "from PIN (line 3)")`.
                let line: Int
                switch entry.pin.source.place {
                case .file(path, let at?, nil): line = at
                case .configuration(path, let at?, let keyPath) where keyPath.hasPrefix("from "): line = at
                default:
                    Fuzz.require(false, "pin source \(entry.pin.source) is not a line of \(path)")
                    return
                }
                Fuzz.require((1...lines).contains(line), "pin source \(entry.pin.source) in a file of \(lines) line(s)")
            }
            // Exported in every form (Java's and Kotlin's escaping rule on what the other language read), the pins
            // read back under the same patterns, in order.
            for (writtenPath, writtenFormat) in forms {
                PortableInvariants.requireExportReadsBack(
                    policy, as: "\(path) -> \(writtenPath)",
                    write: { (policy, losses) throws(ExportError) in
                        try OkHttpSourceWriter.write(policy, format: writtenFormat, losses: &losses)
                    },
                    read: { (written) throws(ConfigurationError) in
                        try OkHttpSourceReader.read(written, path: writtenPath, hosts: []).policy
                    })
            }
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(OkHttpSourceFuzz.check) }
}
