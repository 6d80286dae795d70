import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as the content of a policy file (`pinctl.yaml`).
///
/// The file stands in examples/, so that the paths it names (certificates, pin folders, the apps' native files)
/// reach the real files the example uses, and what a policy file reads beside itself is fuzzed too.
enum PolicyFileFuzz {
    static let path = Fuzz.repositoryPath("examples/pinctl.yaml")

    static func check(_ bytes: [UInt8]) {
        let file: PolicyFile
        do {
            file = try PolicyFile.load(bytes, path: path)
        } catch {
            // An error is in the policy file, or in a file it names (and that file exists).
            Fuzz.require(error.file == path || FileManager.default.fileExists(atPath: error.file),
                         "a rejection that names neither the file nor one it names: \(error)")
            if error.file == path, let line = error.line {
                requireLine(line, in: bytes, "\(error)")
            }
            return
        }
        Fuzz.require(!file.apps.isEmpty, "a policy file accepted without apps")
        var names: Set<String> = []
        for app in file.apps {
            Fuzz.require(!app.name.isEmpty, "an app accepted without a name at \(app.location)")
            Fuzz.require(names.insert(app.name).inserted, "two apps named \(app.name.debugDescription) accepted")
            Fuzz.require(app.file == path, "app \(app.name) placed in \(app.file)")
            if let line = app.line { requireLine(line, in: bytes, "app \(app.name) at \(app.location)") }
            Fuzz.require(app.policy.library == app.library,
                         "app \(app.name) of \(app.library.rawValue) has a \(app.policy.library.rawValue) policy")
        }
    }

    /// A line the file has: counted from 1, no later than its last.
    private static func requireLine(_ line: Int, in bytes: [UInt8], _ context: @autoclosure () -> String) {
        let lines = Fuzz.maximumLine(of: bytes)
        Fuzz.require((1...lines).contains(line), "line \(line) of a file of \(lines) line(s): \(context())")
    }
}

@main
enum Main {
    static func main() { Fuzz.main(PolicyFileFuzz.check) }
}
