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

    /// Four times the calls on one line take about four times as long, not sixteen. Compared with the same run's
    /// shorter line rather than a fixed time, so a slow machine or a sanitized build (CI's ASan run took 24 s for
    /// the long line while other builds ran) does not fail it; a quadratic reader still does.
    @Test func aLongLineIsReadInLinearTime() throws {
        func seconds(_ count: Int) throws -> Double {
            let calls = String(repeating: ".add(\"a.example.com\", \"\(okA)\")", count: count)
            let clock = ContinuousClock()
            let start = clock.now
            let (policy, _, _) = try readOkHttpSource("P.kt", "val p = CertificatePinner.Builder()" + calls + ".build()")
            #expect(policy.entries.count == 1)
            let elapsed = (clock.now - start).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
        let short = try seconds(5_000)
        let long = try seconds(20_000)  // a 1.2 MB line
        #expect(long < 10 * short + 0.5, "5,000 calls in \(short) s, 20,000 in \(long) s")
    }
}
