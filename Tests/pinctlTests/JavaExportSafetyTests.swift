import Foundation
import Testing
import TestSupport

/// End-to-end: what `config export --to okhttp` writes is compiled by the real javac, and nothing the policy holds
/// (a host, a file name in a dropped element's comment) becomes code; an Alamofire key is a host, never a wildcard.
@Suite struct JavaExportSafetyTests {
    static let leafKey = LibraryCerts.path("leaf.pem")

    /// Exports `app` of `policy` (written as pinctl.yaml in `directory`) to OkHttp in `format`.
    static func export(_ policy: String, app: String, _ arguments: [String], in directory: TemporaryDirectory) throws
        -> PinctlProcess.Result
    {
        let file = try directory.write("pinctl.yaml", text: policy)
        return try PinctlProcess.run(["config", "export", "--config", file, "--app", app, "--to", "okhttp"]
            + arguments, in: directory.path)
    }

    @Test func anAlamofireHostThatIsNoHostNameIsRefusedBeforeAnythingIsWritten() throws {
        try TemporaryDirectory.with { directory in
            let result = try Self.export("""
                version: 1
                apps:
                  - name: ios
                    library: alamofire
                    policy:
                      evaluators:
                        'x\\u000aSystem.exit(43);//': {kind: disabled}
                        api.example.com: {kind: public-keys, keys: [\(Self.leafKey)]}

                """, app: "ios", ["--format", "java", "--lossy"], in: directory)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            #expect(result.stderr.hasPrefix("pinctl: \(directory.path("pinctl.yaml")):7:"), "\(result)")
            #expect(result.stderr.contains(#"evaluators['x\u000aSystem.exit(43);//']"#), "\(result)")
            #expect(result.stderr.contains("contains '\\': a host name has only letters"), "\(result)")
        }
    }

    /// A file name is no host: `x\u000aSystem.exit(42);` is a legal directory, and the NSC app's dropped trust
    /// anchors are named by it in the Java file's comment. javac must compile that comment as a comment.
    @Test(.enabled(if: JavaCompiler.isAvailable))
    func aJavaExportCompilesAndNothingInItsCommentsRuns() throws {
        try TemporaryDirectory.with { directory in
            let folder = #"x\u000aSystem.exit(42);"#
            _ = try directory.makeDirectory(folder)
            _ = try directory.write(folder + "/nsc.xml", text: """
                <network-security-config>
                  <domain-config>
                    <domain includeSubdomains="true">example.com</domain>
                    <trust-anchors><certificates src="user"/></trust-anchors>
                    <pin-set><pin digest="SHA-256">\(LibraryCerts.bareBase64(of: "leaf.pem"))</pin></pin-set>
                  </domain-config>
                </network-security-config>

                """)
            let result = try Self.export("""
                version: 1
                apps:
                  - name: android
                    library: nsc
                    config: '\(folder)//nsc.xml'

                """, app: "android", ["--format", "java", "--lossy"], in: directory)
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(#"x\\u000aSystem.exit(42);//nsc.xml"#), "\(result)")
            // The export is a snippet: its declaration goes in a method, its comment and import stay on top.
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            let declaration = try #require(lines.firstIndex { $0.hasPrefix("CertificatePinner certificatePinner") })
            let program = lines[..<declaration].joined(separator: "\n") + """

                public class Pinning {
                    public static void main(String[] args) {
                        \(lines[declaration...].joined(separator: "\n        "))
                    }
                }

                """
            let run = try JavaCompiler.compileAndRun([("okhttp3/CertificatePinner.java",
                                                       JavaCompiler.certificatePinnerStub),
                                                      ("Pinning.java", program)], main: "Pinning", in: directory)
            #expect(run.status == 0, "\(run)\n\(program)")
            #expect(run.stdout == "add [**.example.com] [\(LibraryCerts.pin(of: "leaf.pem"))]\n", "\(run)")
            let bytecode = try JavaCompiler.disassemble("Pinning", in: directory)
            #expect(bytecode.contains("okhttp3/CertificatePinner$Builder.add"), "\(bytecode)")
            #expect(!bytecode.contains("java/lang/System.exit"), "\(bytecode)")
        }
    }

    @Test func anAlamofireWildcardKeyIsNoOkHttpWildcard() throws {
        let policy = """
            version: 1
            apps:
              - name: ios
                library: alamofire
                policy:
                  evaluators:
                    '*.example.com': {kind: public-keys, keys: [\(Self.leafKey)]}
                    api.example.com: {kind: public-keys, keys: [\(Self.leafKey)]}

            """
        let loss = "the evaluator of *.example.com, which applies to no host (Alamofire looks hosts up exactly: its * "
            + "is a literal character, not a wildcard)"
        try TemporaryDirectory.with { directory in
            let strict = try Self.export(policy, app: "ios", ["--format", "kotlin"], in: directory)
            #expect(strict.status == 2, "\(strict)")
            #expect(strict.stderr == "pinctl: okhttp cannot express what ios holds: \(loss) (give --lossy to write "
                + "the rest)\n", "\(strict)")
            let lossy = try Self.export(policy, app: "ios", ["--format", "kotlin", "--lossy"], in: directory)
            #expect(lossy.status == 0, "\(lossy)")
            #expect(lossy.stderr == "warning: dropped: \(loss)\n", "\(lossy)")
            #expect(lossy.stdout == """
                // Written by pinctl config export.
                // Not expressible in OkHttp, dropped: the evaluator of *.example.com, which applies to no host (Alamofire looks hosts
                //   up exactly: its * is a literal character, not a wildcard)
                import okhttp3.CertificatePinner

                val certificatePinner = CertificatePinner.Builder()
                    .add("api.example.com", "\(LibraryCerts.pin(of: "leaf.pem"))")
                    .build()

                """, "\(lossy)")
        }
    }
}
