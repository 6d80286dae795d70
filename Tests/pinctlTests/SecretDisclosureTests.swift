import Foundation
import Testing
import TestSupport

/// A reader can be pointed at any file (`config:` in a policy file, `--targets-from`, `--pins`), and its errors go to
/// a CI log others read: it names the file and line, quotes at most a short excerpt cut before `:`, `@`, `=` or a
/// blank, and refuses a file holding a NUL byte without quoting it (issue 17, item 3).
@Suite struct SecretDisclosureTests {
    static let token = "ghp_Q8vX2sLm4TzK9rW1yN6bC3dF7hJ0pA5eU2iO"
    static let at = ["--at", TestTime.nowText]

    /// `pinctl verify --config pinctl.yaml` with one app whose `config:` is `name`, holding `bytes`.
    static func verifyWithConfig(
        named name: String, _ bytes: [UInt8], library: String = "okhttp"
    ) throws -> (PinctlProcess.Result, String) {
        try TemporaryDirectory.with { directory in
            let config = try directory.write(name, bytes: bytes)
            let policy = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: sdk
                    library: \(library)
                    config: \(config)

                """)
            let result = try PinctlProcess.run(["verify", "--config", policy, "--chain", "leaf-chain.pem",
                                                "--host", "pinning.test"] + Self.at)
            return (result, config)
        }
    }

    @Test func aConfigShapedLikeTheEnvironmentIsRefusedForItsNulByteWithoutQuotingIt() throws {
        // /proc/self/environ: NAME=value entries, each ended by a NUL, no newline.
        let environ = Array("HOME=/root\0GITHUB_TOKEN=\(Self.token)\0AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI\0".utf8)
        let (result, config) = try Self.verifyWithConfig(named: "environ", environ)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(config):1: holds a NUL byte: not a text file"), "\(result)")
        #expect(!result.stderr.contains("ghp_"), "\(result)")
        #expect(!result.stderr.contains("wJalrXUtnFEMI"), "\(result)")
        #expect(!result.stderr.contains("/root"), "\(result)")
    }

    @Test func aConfigShapedLikeGitCredentialsIsRefusedWithoutItsToken() throws {
        let credentials = "https://octocat:\(Self.token)@github.com\n"
        let (result, config) = try Self.verifyWithConfig(named: ".git-credentials", Array(credentials.utf8))

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(config):1:1: https… has no pin"), "\(result)")
        #expect(!result.stderr.contains(Self.token), "\(result)")
        #expect(!result.stderr.contains("octocat"), "\(result)")
    }

    @Test func aConfigLineWithASecretAfterItsFirstWordQuotesNoneOfIt() throws {
        // Two words, so OkHttp's own check of the pattern refuses it (a `:`): its message quotes the pattern whole.
        let netrc = "DEPLOY_KEY:\(Self.token) sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n"
        let (result, config) = try Self.verifyWithConfig(named: "deploy.env", Array(netrc.utf8))

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(config):1:1: the pattern DEPLOY_KEY…: OkHttp refuses it: Invalid pattern: "
            + "DEPLOY_KEY…"), "\(result)")
        #expect(!result.stderr.contains("ghp_"), "\(result)")
    }

    @Test func aMalformedJSONConfigNamesTheStringItStoppedAtWithoutQuotingIt() throws {
        let json = "{\"client_id\": \"a.apps\", \"client_secret\" \"GOCSPX-kT4r9\"}\n"
        let (result, config) = try Self.verifyWithConfig(named: "credentials.json", Array(json.utf8),
                                                         library: "trustkit")

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(config):1: not JSON: ':' expected near a string"), "\(result)")
        #expect(!result.stderr.contains("GOCSPX"), "\(result)")
    }

    @Test func aTargetsListShapedLikeCredentialsNamesEachLineWithoutItsSecret() throws {
        try TemporaryDirectory.with { directory in
            let list = try directory.write("targets.txt", text: """
                octocat:\(Self.token)@github.com
                DB_PASSWORD=\(Self.token)

                """)
            let result = try PinctlProcess.run(["check", "--targets-from", list, "--format", "json"] + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(list):1: target octocat…: the port is not a number from 1 to 65535"),
                    "\(result)")
            #expect(result.stderr.contains("\(list):2: target DB_PASSWORD…: 'DB_PASSWORD…' contains '='"), "\(result)")
            #expect(!result.stderr.contains("ghp_") && !result.stdout.contains("ghp_"), "\(result)")
        }
    }

    @Test func aTargetsListWithANulByteEndsThereUnquoted() throws {
        try TemporaryDirectory.with { directory in
            let list = try directory.write("targets.txt", bytes: Array("# targets\nTOKEN=\(Self.token)\0\n".utf8))
            let result = try PinctlProcess.run(["check", "--targets-from", list] + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("\(list): line 2 holds a NUL byte: not a text file"), "\(result)")
            #expect(!result.stderr.contains("ghp_"), "\(result)")
        }
    }

    @Test func aPinFileWithANulByteIsRefusedUnquoted() throws {
        try TemporaryDirectory.with { directory in
            let pins = try directory.write("leaked.pin", bytes: Array("# pins\n\nsha256/\(Self.token)\0\n".utf8))
            let result = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--pins", pins]
                + LiveRun.anchors)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--pins \(pins):3: holds a NUL byte: not a text file"), "\(result)")
            #expect(!result.stderr.contains("ghp_"), "\(result)")
        }
    }

    @Test func aBadPinOnTheCommandLineIsQuotedOnlyInPart() throws {
        let result = try PinctlProcess.run(["verify", "--chain", "leaf-chain.pem", "--library", "okhttp", "--host",
                                            "pinning.test", "--pin", "sha256/x=\(Self.token)"] + LiveRun.anchors)

        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--pin sha256/x…: OkHttp refuses it: Invalid pin hash: sha256/x…"), "\(result)")
        #expect(!result.stderr.contains("ghp_"), "\(result)")
    }
}
