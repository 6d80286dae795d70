import ArgumentParser

/// `--format` and `--quiet`.
struct OutputOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, sarif
    }

    @Option(help: "Output format: text (for people), json (one object per line), junit or sarif (one document).")
    var format: Format = .text

    @Flag(name: .shortAndLong, help: "Print only errors and rejections (on stderr).")
    var quiet = false
}
