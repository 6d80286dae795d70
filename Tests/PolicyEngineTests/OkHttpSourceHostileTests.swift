import Foundation
import PolicyEngine
import Testing
import TestSupport

/// Untrusted bytes never trap: whatever a source file or list holds, reading it returns a policy or throws a
/// configuration error.
@Suite("OkHttp sources from hostile bytes")
struct OkHttpSourceHostileTests {
    /// Pieces of Kotlin and Java that open and close what the lexer and the call finder track, glued at random.
    static let pieces = ["\"", "\"\"\"", "/*", "*/", "//", "\n", "\r", "${", "}", "{", "'", "\\", "\\u", "\\u0041",
                         "CertificatePinner.Builder()", "new CertificatePinner.Builder()", ".add(", "add(", ")", "(",
                         ",", " ", "\"a.example.com\"", "\"sha256/AAAA\"", "*arrayOf(", "new String[] {", "é", "$x",
                         ".apply {", "val b = ", "b.add(", "with(b) {", "pattern = ", ".build()", "import ", "`", "=",
                         "\u{FEFF}", "\0", "\u{7F}", "sha1/", "#", "\t"]

    /// A linear congruential generator: the same "random" files on every run.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test(arguments: ["P.kt", "P.java", "pins.txt"])
    func randomPiecesAreReadOrRefusedNeverTrap(_ name: String) throws {
        var generator = Generator(state: 42)
        var read = 0
        var refused = 0
        try TemporaryDirectory.with { directory in
            for _ in 0..<500 {
                let count = 1 + generator.next(40)
                let text = (0..<count).map { _ in Self.pieces[generator.next(Self.pieces.count)] }.joined()
                let path = try directory.write(name, text: text)
                do {
                    _ = try OkHttpSourceReader.read(path, hosts: [])
                    read += 1
                } catch let error as ConfigurationError {
                    #expect(error.line == nil || error.line ?? 0 >= 1, "\(error)")
                    refused += 1
                } catch {
                    Issue.record("not a configuration error: \(error)")
                }
            }
        }
        #expect(read + refused == 500)
    }

    @Test func deeplyNestedTemplatesAreRefusedNotFollowedToTheEndOfTheStack() throws {
        func nested(_ depth: Int) -> String { depth == 0 ? "\"x\"" : "\"${" + nested(depth - 1) + "}\"" }
        do {
            _ = try readOkHttpSource("P.kt", "val s = " + nested(1_000) + "\n")
            Issue.record("read")
        } catch let error as ConfigurationError {
            #expect(error.line == 1)
            #expect(error.message == "string templates nested more than 32 deep")
        }
        do {
            _ = try readOkHttpSource("P.kt", "val s = " + nested(32) + "\n")
            Issue.record("read")
        } catch let error as ConfigurationError {
            #expect(error.message.hasPrefix("no CertificatePinner.Builder()"), "32 levels are read")
        }
    }

    @Test func aLongLineIsReadInLinearTime() throws {
        let calls = String(repeating: ".add(\"a.example.com\", \"\(okA)\")", count: 20_000)
        let clock = ContinuousClock()
        let start = clock.now
        let (policy, _, _) = try readOkHttpSource("P.kt", "val p = CertificatePinner.Builder()" + calls + ".build()")
        #expect(policy.entries.count == 1)
        #expect(clock.now - start < .seconds(20), "a 1.2 MB line")
    }
}
