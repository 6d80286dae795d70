import ArgumentParser
import XMLTree

/// `--format` and `--quiet`.
struct OutputOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, sarif
    }

    @Option(help: "Output format: text (for people), json (one object per line), junit or sarif (one document).")
    var format: Format = .text

    @Flag(name: .shortAndLong, help: "Print only errors and rejections (on stderr).")
    var quiet = false

    @Flag(help: "Also list the certificate paths tried and refused, and why (text output).")
    var verbose = false

    func validate() throws {
        // JUnit is written with libxml2, opened only now: a missing library is said before any work, not after it.
        guard format == .junit else { return }
        do {
            try XMLLibrary.open()
        } catch {
            throw ValidationError("--format junit: \(error)")
        }
    }
}
