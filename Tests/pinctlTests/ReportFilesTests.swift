import Foundation
import Testing
import TestSupport

/// `--sarif-file`, `--junit-file`, `--json-file` and `--summary-file`: the documents a run also writes, whatever
/// `--format` is (one run, one handshake per target, gives a CI job its log and its reports).
@Suite struct ReportFilesTests {
    /// A chain verify rejects: the leaf's key is not the pinned one.
    static let verify = ["verify", "--chain", "leaf-chain.pem", "--host", "pinning.test", "--mode", "publickey",
                         "--pins", "leaf-rekeyed.pem"] + LiveRun.anchors

    @Test(arguments: [("--sarif-file", "sarif"), ("--junit-file", "junit"), ("--json-file", "json")])
    func eachFileHoldsWhatThatFormatPrints(_ option: String, _ format: String) throws {
        try TemporaryDirectory.with { directory in
            let file = directory.path("report")
            let text = try PinctlProcess.run(Self.verify + [option, file])
            let printed = try PinctlProcess.run(Self.verify + ["--format", format])

            #expect(text.status == 1, "\(text)")
            #expect(text.stdout.contains("REJECTED"), "\(text)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == printed.stdout)
        }
    }

    @Test func anExistingFileIsNotOverwrittenAndNothingIsChecked() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.path("report.sarif")
            try "kept\n".write(toFile: file, atomically: true, encoding: .utf8)
            let result = try PinctlProcess.run(Self.verify + ["--sarif-file", file])

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--sarif-file \(file): exists; nothing was checked"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == "kept\n")
        }
    }

    @Test func theSummaryIsAppendedAsAMarkdownTable() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.path("summary.md")
            try "earlier step\n".write(toFile: file, atomically: true, encoding: .utf8)
            let result = try PinctlProcess.run(Self.verify + ["--summary-file", file])

            #expect(result.status == 1, "\(result)")
            #expect(try String(contentsOfFile: file, encoding: .utf8) == """
                earlier step
                ### pinctl

                | Target | App | Platform | Verdict | Reason | Breaks on |
                |---|---|---|---|---|---|
                | `leaf-chain.pem` |  |  | ❌ rejected | `public-key-not-pinned: public key not pinned: no key in the \
                chain matches the 1 pinned key(s)` |  |

                0 trusted, 1 rejected, 0 errors

                """)
        }
    }

    /// GitHub's Markdown links an e-mail address, `www.` and `https://` in text even when escaped (cmark-gfm reads
    /// `a\@b\.com` as `a@b.com` and links it): the names a certificate gives, quoted in the reason, are a code span,
    /// which it leaves as it is.
    @Test func aCertificatesEmailAndURLNamesAreNoLinksInTheSummary() throws {
        try TemporaryDirectory.with { directory in
            try OpenSSLCLI.selfSigned("mailer", subject: "/CN=mailer", subjectAltName:
                "email:ops@example.com, DNS:www.example.org, URI:https://evil.example/x", in: directory.path)
            let file = directory.path("summary.md")
            let result = try PinctlProcess.run(["verify", "--chain", "mailer.pem", "--ca-file", "mailer.pem", "--host",
                                                "pinning.test", "--at", OpenSSLCLI.validTime, "--summary-file", file],
                                               in: directory.path)

            #expect(result.status == 1, "\(result)")
            let rows = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            #expect(rows.contains("| `mailer.pem` |  |  | ❌ rejected | `hostname-mismatch: host name mismatch: certificate "
                + "#0 (CN=mailer) is not valid for pinning.test; it names email:ops@example.com, DNS:www.example.org, "
                + "URI:https://evil.example/x` |  |"), "\(rows)")
        }
    }

    /// A summary cell is one line of literal text: a target named with Markdown and HTML shows as typed, its `|` as
    /// the `\|` a table cell needs.
    @Test func textFromOutsideIsNeverMarkupInTheSummary() throws {
        try TemporaryDirectory.with { directory in
            let file = directory.path("summary.md")
            let result = try PinctlProcess.run(["check", "--targets-from", "-", "--summary-file", file],
                                               input: Array("<b>x|y</b>@[z](http://a)\n".utf8))

            #expect(result.status == 2, "\(result)")
            let summary = try String(contentsOfFile: file, encoding: .utf8)
            // pinctl names the unreadable target by its start.
            #expect(summary.contains("\n| `<b>x\\|y</b>…` |  |  | ⚠️ error | `input: <stdin>:1: target <b>x\\|y</b>…: "
                + "only https:// URLs can be checked` |  |\n"), "\(summary)")
        }
    }
}
