import Foundation
import Testing
import TestSupport

/// The layout of STYLE.md kept by the sources themselves (#18): C only in its wrapper modules, no module re-exporting
/// another, the helpers without OpenSSL outside OpenSSLWrapper, one condition variable, and no file over 300 lines.
@Suite struct ModuleLayoutTests {
    /// Every Swift file under `Sources/<folder>`, as (path relative to the root, text).
    static func sources(_ folder: String = "") throws -> [(path: String, text: String)] {
        let base = Certs.root + "/Sources/" + folder
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        return try walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted().map { name in
            ("Sources/" + (folder.isEmpty ? "" : folder + "/") + name,
             try String(contentsOfFile: base + "/" + name, encoding: .utf8))
        }
    }

    /// The lines of `text` that are code, with `//` comments cut off.
    static func codeLines(_ text: String) -> [Substring] {
        text.split(separator: "\n").map { line in line.range(of: "//").map { line[..<$0.lowerBound] } ?? line }
    }

    @Test func thePolicyEngineImportsNoCLibraryAndHoldsNoPointer() throws {
        let files = try Self.sources("PolicyEngine")
        #expect(files.count > 50)
        for (path, text) in files {
            for line in Self.codeLines(text) {
                #expect(!line.contains(/import (CLibYAML|CJansson|COpenSSL|CLibXML2|CLibPSL|CLibArchive)\b/), "\(path): \(line)")
                #expect(!line.contains(/\b(Unsafe\w*|OpaquePointer)\b/), "\(path): \(line)")
            }
        }
    }

    @Test func noModuleReExportsAnother() throws {
        for (path, text) in try Self.sources() {
            #expect(!text.contains("@_exported"), "\(path)")
        }
    }

    @Test("helpers with no OpenSSL in them live outside OpenSSLWrapper", arguments: [
        "FileInput", "FileSystem", "LineInput", "PathBytes", "UntrustedText", "Hex", "DomainName", "ValidationTime",
    ])
    func helperLivesOutsideOpenSSLWrapper(_ name: String) throws {
        let declaration = try Regex("^public (enum|struct|final class) \(name)\\b").anchorsMatchLineEndings()
        let homes = try Self.sources().filter { $0.text.contains(declaration) }.map(\.path)
        #expect(homes.count == 1, "\(name) declared in \(homes)")
        #expect(!homes.contains { $0.hasPrefix("Sources/OpenSSLWrapper/") }, "\(name) declared in \(homes)")
    }

    /// Guarded state uses `Synchronization.Mutex`; the one type that waits with a time limit says why it exists.
    @Test func oneConditionVariable() throws {
        let primitives = /\b(pthread_mutex_\w+|pthread_cond_\w+|NSLock|NSCondition|DispatchSemaphore)\b/
        let users = try Self.sources().filter { file in Self.codeLines(file.text).contains { $0.contains(primitives) } }
        #expect(users.map(\.path) == ["Sources/Transport/ThreadCondition.swift"])
    }

    /// What an options struct must not do, by kind, as it shows in a line of code.
    static let optionsWork: [String: String] = [
        "connects": #"\.handshake\(|\bTLSClient\b|\bTLSConnection\b"#,
        "reads files": #"\bimport FileAccess\b|\bFileInput\b|\bFileManager\b|\bCertificateParser\b|\bChainFiles\b"#
            + #"|\bPinMaterial\b|\bPinLoader\b|\bTrustStore\.|\bload\w*\("#,
        "verifies chains or builds policies": #"\bChainVerifier\b|\.verify\(|\bPolicyEvaluator\b|\bpolicyFromFlags\b"#
            + #"|\bPolicySetup\("#,
        "prints or ends the process": #"\bTerminal\.|\bprint\(|\bexit\("#,
    ]

    /// Options structs only parse (#18): their properties, `validate()` and a conversion to the settings the checking
    /// core takes. Reading, connecting, verifying, building and printing belong to a command, or to Checking when
    /// commands share them; only a command's `run()` maps a result to an exit status.
    @Test("options only parse: nothing in Sources/PinctlCLI/Options", arguments: [
        "connects", "reads files", "verifies chains or builds policies", "prints or ends the process",
    ])
    func optionsOnlyParse(_ kind: String) throws {
        let work = try Regex(try #require(Self.optionsWork[kind]))
        let files = try Self.sources("PinctlCLI/Options")
        #expect(files.count >= 10)
        for (path, text) in files {
            for line in Self.codeLines(text) {
                #expect(!line.contains(work), "\(path) \(kind): \(line)")
            }
        }
    }

    /// Files of 50 to 300 lines, one concept each (STYLE.md): none over 300 (#34).
    @Test func noSourceFileIsOver300Lines() throws {
        let files = try Self.sources()
        #expect(files.count > 200)
        for (path, text) in files {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
            #expect(lines <= 300, "\(path) has \(lines) lines")
        }
    }
}
