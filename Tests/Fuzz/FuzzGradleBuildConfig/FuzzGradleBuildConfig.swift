import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as a module's build script: `build.gradle.kts` (Kotlin's rules) and `build.gradle` (Groovy's), each read
/// as `config import` reads it, through a source beside it whose pin is `BuildConfig.PIN`; once for every variant
/// together and once for `release`.
enum GradleBuildConfigFuzz {
    static let root = NSTemporaryDirectory() + "FuzzGradleBuildConfig-\(getpid())"

    /// A module per script name, made once for the run (and removed at its end): the script's path and the source's.
    static let modules: [(script: String, source: String)] = {
        atexit { try? FileManager.default.removeItem(atPath: GradleBuildConfigFuzz.root) }
        return ["build.gradle.kts", "build.gradle"].map { name in
            let module = "\(root)/\(name)/app"
            let sources = module + "/src/main/java/net"
            let source = sources + "/Pinning.kt"
            do {
                try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
                try Data("val pinner = CertificatePinner.Builder().add(\"api.example.com\", BuildConfig.PIN).build()\n"
                    .utf8).write(to: URL(fileURLWithPath: source))
            } catch {
                Fuzz.require(false, "cannot make the module in \(root): \(error)")
            }
            return (module + "/" + name, source)
        }
    }()

    static func check(_ bytes: [UInt8]) {
        let lines = Fuzz.maximumLine(of: bytes)
        for (script, source) in modules {
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: script))
            } catch {
                Fuzz.require(false, "cannot write \(script): \(error)")
            }
            for variant in [nil, "release"] {
                let policy: OkHttpPolicy
                do {
                    policy = try OkHttpSourceReader.read(source, hosts: [], variant: variant).policy
                } catch {
                    // A refusal names the script and one of its lines, or the source's one line (an unresolved pin,
                    // whose reason quotes the script).
                    Fuzz.require(error.file == script || error.file == source, "a rejection naming neither: \(error)")
                    if let line = error.line {
                        let last = error.file == script ? lines : 1
                        Fuzz.require((1...last).contains(line), "line \(line) of a file of \(last) line(s): \(error)")
                    }
                    continue
                }
                // Every pin came from a field on a line of the script.
                for entry in policy.entries {
                    guard case .configuration(source, let at?, let keyPath) = entry.pin.source.place, at == 1,
                          keyPath.hasPrefix("from BuildConfig.PIN (\(script):"), keyPath.hasSuffix(")"),
                          let line = Int(keyPath.dropFirst("from BuildConfig.PIN (\(script):".count).dropLast())
                    else {
                        Fuzz.require(false, "pin source \(entry.pin.source) is not a field of \(script)")
                        return
                    }
                    Fuzz.require((1...lines).contains(line), "a field at line \(line) of a file of \(lines) line(s)")
                }
            }
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(GradleBuildConfigFuzz.check) }
}
