import ArgumentParser

/// `--format` and `--quiet`.
struct OutputOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format: text (for people) or json (one object per line).")
    var format: Format = .text

    @Flag(name: .shortAndLong, help: "Print only errors and rejections (on stderr).")
    var quiet = false
}
