import Foundation
import Testing
import TestSupport

/// A GitHub Actions runner reads every line a step prints for workflow commands: `##[command]` anywhere in the line
/// and `::command::` at its start after white space (actions/runner, ActionCommand.TryParse and TryParseV2). A
/// certificate named `api ##[stop-commands]tok1` must not switch off pinctl's own `::error` annotations, with
/// GITHUB_ACTIONS set or not, in text, JSON or JUnit.
@Suite struct WorkflowCommandInjectionTests {
    static let stopCommands = "api ##[stop-commands]tok1"

    /// The lines the runner would take for a command: `##[` anywhere, or `::` first after white space.
    static func commandLines(_ output: String) -> [String] {
        output.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
            .filter { $0.contains("##[") || $0.drop(while: { $0.isWhitespace }).hasPrefix("::") }
    }

    /// pinctl's own annotations: `::error file=…` or `::error title=…`, nothing else.
    static func isOwnAnnotation(_ line: String) -> Bool {
        (line.hasPrefix("::error ") || line.hasPrefix("::warning ")) && !line.contains("##[")
    }

    /// A self-signed certificate whose common name and only name carry the stop-commands command.
    private func hostileCertificate(in directory: TemporaryDirectory) throws -> String {
        try OpenSSLCLI.selfSigned("stop", subject: "/CN=\(Self.stopCommands)",
                                  subjectAltName: "DNS:\(Self.stopCommands),DNS:##[error]forged", in: directory.path)
        return directory.path("stop.pem")
    }

    @Test(arguments: [true, false])
    func aServedCertificateNamingACommandStopsNoAnnotation(onGitHubActions: Bool) throws {
        try TemporaryDirectory.with { directory in
            let hostile = try hostileCertificate(in: directory)
            let server = try TLSTestServer(chainPEM: hostile, keyPath: directory.path("stop.key"))
            defer { server.stop() }
            // The hostile target first, then one that cannot be reached: its ::error comes after the names.
            let result = try PinctlProcess.run(
                ["check", "127.0.0.1:\(server.port)", "127.0.0.1:1", "--servername", "other.test", "--ca-file", hostile,
                 "--at", OpenSSLCLI.validTime], environment: ["GITHUB_ACTIONS": onGitHubActions ? "true" : "false"])
            #expect(result.status == 2 || result.status == 1, "\(result)")
            let output = result.stdout + result.stderr
            #expect(!output.contains("##["), "\(result)")
            #expect(output.contains("api \\x23#[stop-commands]tok1"), "the name is shown, escaped: \(result)")
            let commands = Self.commandLines(output)
            #expect(commands.allSatisfy(Self.isOwnAnnotation), "\(commands)")
            #expect(commands.count == (onGitHubActions ? 2 : 0), "an ::error per target: \(commands)")
        }
    }

    @Test func verifyOfSuchACertificateInTextAndJSONFormsNoCommand() throws {
        try TemporaryDirectory.with { directory in
            let hostile = try hostileCertificate(in: directory)
            for format in ["text", "json", "junit", "sarif"] {
                let result = try PinctlProcess.run(
                    ["verify", "--chain", hostile, "--ca-file", hostile, "--host", "other.test", "--at",
                     OpenSSLCLI.validTime, "--format", format], environment: ["GITHUB_ACTIONS": "true"])
                #expect(result.status == 1, "\(result)")
                #expect(!(result.stdout + result.stderr).contains("##["), "\(format): \(result)")
                #expect(Self.commandLines(result.stdout + result.stderr).allSatisfy(Self.isOwnAnnotation), "\(result)")
                if format == "json" {
                    // JSON spells the # as \u0023: the same text once read.
                    #expect(try LiveRun.object(result.stdout).description.contains(Self.stopCommands), "\(result)")
                }
                if format == "junit" {
                    #expect(try ElementTree.parse(result.stdout).text.contains(Self.stopCommands), "\(result)")
                }
            }
        }
    }

    /// An app's name begins a line of the table of a policy-file run: `::error::…` there would be a command.
    @Test func anAppNamedLikeACommandDoesNotBeginALineAsOne() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                anchors: { ca-files: [\(LibraryCerts.path("root-ca.pem"))] }
                apps:
                  - name: "::error title=forged::forged annotation"
                    library: okhttp
                    policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "root-ca.pem"))] } }
                  - name: broken
                    library: okhttp
                    policy: { pins: { "**.example.com": [\(LibraryCerts.pin(of: "leaf-other-intermediate.pem"))] } }
                """)
            for onGitHubActions in [true, false] {
                let result = try PinctlProcess.run(
                    ["verify", "--config", file, "--chain", LibraryCerts.path("leaf-rekeyed-chain.pem"), "--host",
                     "api.example.com", "--at", TestTime.nowText],
                    environment: ["GITHUB_ACTIONS": onGitHubActions ? "true" : "false"])
                #expect(result.status == 1, "\(result)")
                let commands = Self.commandLines(result.stdout + result.stderr)
                #expect(commands.allSatisfy(Self.isOwnAnnotation), "\(commands)")
                #expect(commands.count == (onGitHubActions ? 1 : 0), "\(commands)")
                #expect(result.stdout.contains("\\x3A:error title=forged::forged annotation"), "\(result)")
            }
        }
    }
}
