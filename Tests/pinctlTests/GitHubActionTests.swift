import Foundation
import Testing
import TestSupport

/// scripts/github-action.sh, the step action.yml runs, with the environment GitHub Actions sets (GITHUB_ACTIONS,
/// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP, the INPUT_ variables) against a loopback server: two apps, one
/// that trusts the chain and one whose pin is not in it.
@Suite struct GitHubActionTests {
    static let script = "\(Certs.root)/scripts/github-action.sh"

    struct Run {
        let result: Subprocess.Result
        let output: String
        let summary: String
        let runnerTemp: String
        /// The report file the output names, read while the workspace existed; nil when there is none.
        let report: String?
    }

    /// Runs the action's script in a fresh workspace holding pinctl.yaml, with `inputs` as INPUT_ variables.
    func runAction(_ inputs: [String: String], port: UInt16) throws -> Run {
        try TemporaryDirectory.with { directory in
            try """
                apps:
                  - name: validating
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: none }
                  - name: stale-pin
                    library: afnetworking
                    hosts: [pinning.test]
                    policy: { mode: publickey, pins: [\(Certs.path("leaf-rekeyed.pem"))] }
                """.write(toFile: directory.path("pinctl.yaml"), atomically: true, encoding: .utf8)
            let runnerTemp = directory.path("runner-temp")
            try FileManager.default.createDirectory(atPath: runnerTemp, withIntermediateDirectories: false)
            var environment = [
                "GITHUB_ACTIONS": "true", "GITHUB_OUTPUT": directory.path("output"),
                "GITHUB_STEP_SUMMARY": directory.path("summary.md"), "RUNNER_TEMP": runnerTemp,
                "INPUT_PINCTL": PinctlProcess.binary, "INPUT_TARGETS": "127.0.0.1:\(port)",
                "INPUT_ARGS": "--servername 'pinning.test' --ca-file \(Certs.path("root-ca.pem")) --at \(TestTime.nowText)",
            ]
            environment.merge(inputs) { $1 }
            let result = try Subprocess.run(Self.script, [], in: directory.path, environment: environment)
            let read = { (path: String) in try? String(contentsOfFile: path, encoding: .utf8) }
            let output = read(directory.path("output")) ?? ""
            let reportPath = output.split(separator: "\n").first { $0.hasPrefix("report=") }
                .map { String($0.dropFirst("report=".count)) }
            return Run(result: result, output: output, summary: read(directory.path("summary.md")) ?? "",
                       runnerTemp: runnerTemp, report: reportPath.flatMap(read))
        }
    }

    @Test func aRejectionFailsTheStepWithSARIFAnnotationsASummaryAndOutputs() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let run = try runAction([:], port: server.port)

        #expect(run.result.status == 1, "\(run.result)")
        let report = run.runnerTemp + "/pinctl-report.sarif"
        #expect(run.output == "report=\(report)\nexit-code=1\n", "\(run.output)")
        let sarif = try #require(run.report, "\(run.result)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require(((document["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        #expect(results.map { $0["ruleId"] as? String } == ["public-key-not-pinned"], "\(sarif)")
        // At the app's line of the policy file, so the pull request shows it there.
        #expect(("\n" + run.result.stdout).contains(
            "\n::error file=pinctl.yaml,line=6,title=pinctl%3A public-key-not-pinned::"), "\(run.result)")
        #expect(run.summary.hasPrefix("### pinctl\n"), "\(run.summary)")
        #expect(run.summary.contains("| `validating` |  | ✅ trusted |"), "\(run.summary)")
        #expect(run.summary.contains("| `stale-pin` |  | ❌ rejected | `public-key-not-pinned"), "\(run.summary)")
        #expect(run.summary.hasSuffix("\n1 trusted, 1 rejected, 0 errors\n"), "\(run.summary)")
    }

    @Test func failOnNeverPassesTheStepAndTheExitCodeIsStillAnOutput() throws {
        let server = try LiveRun.server()
        defer { server.stop() }
        let run = try runAction(["INPUT_FAIL_ON": "never", "INPUT_FORMAT": "junit"], port: server.port)

        #expect(run.result.status == 0, "\(run.result)")
        #expect(run.output.hasSuffix("exit-code=1\n"), "\(run.output)")
        #expect(run.output.hasPrefix("report=\(run.runnerTemp)/pinctl-report.junit\n"), "\(run.output)")
        let junit = try #require(run.report, "\(run.output)")
        #expect(junit.contains("<testsuite"), "\(junit)")
    }

    @Test func anUnreachableServerFailsTheStepOnlyWithFailOnError() throws {
        let closed = try HostilePeer.refusedPort()
        let rejected = try runAction(["INPUT_TARGETS": "127.0.0.1:\(closed)"], port: closed)
        let error = try runAction(["INPUT_TARGETS": "127.0.0.1:\(closed)", "INPUT_FAIL_ON": "error"], port: closed)

        #expect(rejected.result.status == 0, "\(rejected.result)")
        #expect(rejected.output.hasSuffix("exit-code=3\n"), "\(rejected.output)")
        #expect(error.result.status == 3, "\(error.result)")
        #expect(error.summary.contains("⚠️ error | `refused"), "\(error.summary)")
    }

    @Test(arguments: [
        (["INPUT_FORMAT": "pdf"], "pinctl action: format: 'pdf' is not sarif, junit or json"),
        (["INPUT_FAIL_ON": "sometimes"], "pinctl action: fail-on: 'sometimes' is not rejected, error, input or never"),
        (["INPUT_CONFIG": "missing.yaml"], "pinctl action: config: 'missing.yaml' is not a file"),
        (["INPUT_ARGS": "--servername 'pinning.test"], "pinctl action: args: cannot split"),
        (["INPUT_PINCTL": "no-such-pinctl"], "pinctl action: pinctl: 'no-such-pinctl' not found"),
    ])
    func aWrongInputIsExitTwoNamingIt(_ inputs: [String: String], _ message: String) throws {
        let run = try runAction(inputs, port: 1)

        #expect(run.result.status == 2, "\(run.result)")
        #expect(run.result.stderr.hasPrefix(message), "\(run.result)")
        #expect(run.output.isEmpty, "\(run.output)")
    }

    /// The runner takes `##[` anywhere in a line (ignorable characters such as U+00AD between its three skipped) as
    /// a workflow command: an input the script quotes in a refusal cannot hand it one. Each input below is quoted.
    @Test(arguments: [
        ["INPUT_FORMAT": "x ##[error]forged"],
        ["INPUT_FAIL_ON": "##[stop-commands]tok1"],
        ["INPUT_CONFIG": "#\u{AD}#[group]grouped"],
        ["INPUT_PINCTL": "no-such ##\u{200B}[warning]forged"],
        ["INPUT_ARGS": "'unclosed ##[error]forged"],
        ["INPUT_FORMAT": "x\n##[error]forged\r  ::error::forged"],
    ])
    func noRefusalHandsTheRunnerALegacyCommand(_ inputs: [String: String]) throws {
        let run = try runAction(inputs, port: 1)

        #expect(run.result.status == 2, "\(run.result)")
        #expect(run.result.stderr.hasPrefix("pinctl action: "), "\(run.result)")
        for line in (run.result.stdout + run.result.stderr).split(whereSeparator: \.isNewline) {
            let visible = String(String.UnicodeScalarView(line.unicodeScalars.filter {
                !$0.properties.isDefaultIgnorableCodePoint
            }))
            #expect(!visible.contains("##["), "\(line)")
            #expect(!visible.drop { $0.isWhitespace }.hasPrefix("::"), "\(line)")
        }
    }

    @Test func aRefusalShowsTheInputsHashAsTheTerminalDoes() throws {
        let run = try runAction(["INPUT_FORMAT": "##[error]x"], port: 1)

        #expect(run.result.stderr == "pinctl action: format: '\\x23\\x23[error]x' is not sarif, junit or json\n",
                "\(run.result)")
    }

    /// An input holding a line break cannot put a workflow command at the start of a line.
    @Test func anInputCannotStartAWorkflowCommand() throws {
        let run = try runAction(["INPUT_FORMAT": "x\n::stop-commands::token\n::error::forged"], port: 1)

        #expect(run.result.status == 2, "\(run.result)")
        let lines = (run.result.stdout + run.result.stderr).split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("::") }, "\(run.result)")
    }
}
