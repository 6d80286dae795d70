import ArgumentParser

/// `--sarif-file`, `--junit-file`, `--json-file` and `--summary-file`: the reports a run of check or verify also
/// writes, whatever `--format` is, so that one run (one handshake per target) gives a CI job its log, its report
/// file and its summary.
struct ReportFileOptions: ParsableArguments {
    @Option(name: .customLong("sarif-file"), help: ArgumentHelp(
        "Also write the run's SARIF document to this new file, whatever --format is (for code scanning).",
        valueName: "file"))
    var sarifFile: String?

    @Option(name: .customLong("junit-file"), help: ArgumentHelp(
        "Also write the run's JUnit document to this new file, whatever --format is.", valueName: "file"))
    var junitFile: String?

    @Option(name: .customLong("json-file"), help: ArgumentHelp(
        "Also write the run's results to this new file, one JSON object per line, whatever --format is.",
        valueName: "file"))
    var jsonFile: String?

    @Option(name: .customLong("summary-file"), help: ArgumentHelp(
        "Also append a Markdown table of the run to this file: target, app, verdict, reason, breaks-on date "
            + "(for a CI job's summary, e.g. $GITHUB_STEP_SUMMARY).",
        valueName: "file"))
    var summaryFile: String?

    var asksForAny: Bool { !newFiles.isEmpty || summaryFile != nil }

    /// A document written whole at the end of the run.
    enum Document: String {
        case sarif = "--sarif-file", junit = "--junit-file", json = "--json-file"
    }

    /// The documents asked for, with their files; each file must not exist (`refuseExistingFiles`).
    var newFiles: [(document: Document, path: String)] {
        [(Document.sarif, sarifFile), (.junit, junitFile), (.json, jsonFile)]
            .compactMap { document, path in path.map { (document, $0) } }
    }

    func validate() throws {
        if let junitFile { try OutputOptions.openXML(for: "--junit-file \(junitFile)") }
    }
}
