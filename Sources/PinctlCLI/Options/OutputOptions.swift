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
        if format == .junit { try Self.openXML(for: "--format junit") }
    }

    /// JUnit is written with libxml2, opened only when asked for: a missing library is said before any work, not
    /// after it.
    static func openXML(for option: String) throws {
        do {
            try XMLLibrary.open()
        } catch {
            throw ValidationError("\(option): \(error)")
        }
    }
}
