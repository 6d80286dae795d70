import PolicyEngine
import Testing
import TestSupport

/// Constants made of constants are resolved once each, and no value grows past what a host or pin could be (#32: a
/// 608-byte file whose every line repeats the one before four times took 38 s and 1.2 GB to import).
@Suite("OkHttp constants resolved in bounded work")
struct OkHttpConstantBoundsTests {
    /// Lines `C0 = "x"`, `C1 = C0 + C0 + C0 + C0`, …: each four times the one before. Resolved afresh at every use,
    /// `C12` is 4^12 resolutions and 16 MB; the limit of 4,096 bytes is passed at `C7`.
    static func quadrupling(_ form: String, levels: Int = 12, first: String = "x") -> [String] {
        let declaration: (String, String) -> String
        switch form {
        case "kotlin": declaration = { "const val \($0) = \($1)" }
        case "template": declaration = { "const val \($0) = \($1)" }
        default: declaration = { "    static final String \($0) = \($1);" }
        }
        return [declaration("C0", "\"\(first)\"")] + (1...levels).map { level in
            let previous = "C\(level - 1)"
            let value = form == "template" ? "\"$\(previous)$\(previous)$\(previous)$\(previous)\""
                : [previous, previous, previous, previous].joined(separator: " + ")
            return declaration("C\(level)", value)
        }
    }

    static func source(_ form: String, _ lines: [String], adding argument: String) -> (name: String, text: String) {
        if form == "java" {
            return ("P.java", (["class Pins {"] + lines + ["    CertificatePinner p = new CertificatePinner.Builder()"
                + ".add(\"a.example.com\", \(argument)).build();", "}"]).joined(separator: "\n"))
        }
        let pinner = "val pinner = CertificatePinner.Builder().add(\"a.example.com\", \(argument)).build()"
        return ("P.kt", (lines + [pinner]).joined(separator: "\n"))
    }

    /// Where `C7` is declared: its line names it in the refusal.
    static func line(of name: String, in text: String) -> Int {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return (lines.firstIndex { $0.contains(" \(name) = ") } ?? -1) + 1
    }

    @Test(arguments: ["kotlin", "template", "java"])
    func aValueThatOutgrowsAnyPinIsRefusedNamingTheConstantAtOnce(_ form: String) throws {
        let (name, text) = Self.source(form, Self.quadrupling(form), adding: "C12")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let read = try readOkHttpSource(name, text)
            Issue.record("read as \(read.policy.entryTexts)")
        } catch let error as ConfigurationError {
            #expect(error.file.hasSuffix("/" + name), "\(error)")
            #expect(error.line == Self.line(of: "C7", in: text) && error.line == (form == "java" ? 9 : 8), "\(error)")
            #expect(error.message == "the constant C7 would hold more than 4096 bytes: a host name or a pin is far "
                + "shorter, so pinctl stops rather than build it", "\(error)")
        }
        #expect(clock.now - start < .seconds(5), "resolution is not linear in the declarations")
    }

    /// Empty constants stay short at any depth: only resolving each once keeps 4^12 uses from being 4^12 resolutions.
    @Test(arguments: ["kotlin", "template", "java"])
    func eachConstantIsResolvedOnceHoweverOftenItIsUsed(_ form: String) throws {
        let prefix = String(okA.prefix(7))
        let lines = Self.quadrupling(form, first: "") + [form == "java"
            ? "    static final String PIN = \"\(prefix)\" + C12 + \"\(okA.dropFirst(7))\";"
            : "const val PIN = \"\(prefix)\" + C12 + \"\(okA.dropFirst(7))\""]
        let (name, text) = Self.source(form, lines, adding: "PIN")
        let clock = ContinuousClock()
        let start = clock.now
        let (policy, notes, _) = try readOkHttpSource(name, text)
        #expect(clock.now - start < .seconds(5), "resolution is not linear in the declarations")
        #expect(policy.entryTexts == [.init("a.example.com", okA)])
        // Each constant named once, however often it was used.
        let firstLine = form == "java" ? 2 : 1
        let sources = ["PIN (line \(firstLine + 13))"] + (0...12).reversed().map { "C\($0) (line \(firstLine + $0))" }
        #expect(notes.contains { $0.hasSuffix("is read from " + sources.joined(separator: ", ")) }, "\(notes)")
    }

    @Test func constantsNestedDeeperThanAnyRealFileAreRefusedNamingTheConstant() throws {
        let lines = ["const val D0 = \"\(okA)\""] + (1...17).map { "const val D\($0) = D\($0 - 1)" }
        let (name, text) = Self.source("kotlin", lines, adding: "D17")
        do {
            let read = try readOkHttpSource(name, text)
            Issue.record("read as \(read.policy.entryTexts)")
        } catch let error as ConfigurationError {
            // D17 is made of D16, … of D0, which is 17 constants down.
            #expect(error.line == 1, "\(error)")
            #expect(error.message == "the constant D0 is reached through a chain of more than 16 constants, each "
                + "made of the next: pinctl follows no longer chains", "\(error)")
        }
        // 16 deep is read.
        let (policy, _, _) = try readOkHttpSource(name, text.replacingOccurrences(of: "D17)", with: "D16)"))
        #expect(policy.entryTexts == [.init("a.example.com", okA)])
    }
}
