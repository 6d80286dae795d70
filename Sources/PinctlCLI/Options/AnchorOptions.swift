import ArgumentParser
import Checking
import FoundationEssentials
import PolicyEngine

/// The anchors standing for the system store, and the evaluation time.
struct AnchorOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "Trust anchors from this PEM/DER file instead of the system store. Repeatable.", valueName: "file"))
    var caFiles: [String] = []

    @Option(name: .customLong("ca-path"), help: ArgumentHelp(
        "Trust anchors from this hashed directory (openssl rehash) instead of the system store. Repeatable.",
        valueName: "dir"))
    var caPaths: [String] = []

    @Option(help: ArgumentHelp(
        "Evaluation time: ISO 8601 UTC (2026-01-31T12:00:00Z) or @EPOCH. Default: now.", valueName: "time"))
    var at: String?

    func validate() throws {
        if let at, case .failure(let error) = Timestamp.parse(at) {
            throw ValidationError("--at \(at): \(error.description) (accepted: \(Timestamp.accepted))")
        }
    }

    /// The evaluation time; `validate()` has already checked `--at`.
    var time: Date { at.flatMap { try? Timestamp.parse($0).get() } ?? Date() }

    /// The anchors and the time as the checking core takes them.
    var settings: AnchorSettings { AnchorSettings(caFiles: caFiles, caPaths: caPaths, time: time) }
}
