import Foundation
import OpenSSLWrapper

/// The committed fixture PKI in `certs/` (see certs/README.md), located from this file so tests run from anywhere.
public enum Certs {
    /// The repository root.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/TestSupport/Fixtures.swift
        return url.path
    }()

    public static let directory = root + "/certs"

    /// The path of a file in `certs/`.
    public static func path(_ name: String) -> String { directory + "/" + name }

    /// Every certificate in a file of `certs/`; a fixture that does not parse is a broken checkout.
    public static func load(_ name: String) -> [X509Certificate] {
        do {
            return try CertificateParser.certificates(atPath: path(name))
        } catch {
            fatalError("fixture \(name): \(error)")
        }
    }

    /// The one certificate in a file of `certs/`.
    public static func one(_ name: String) -> X509Certificate { load(name)[0] }
}

/// Fixed evaluation times: tests never depend on today's date.
public enum TestTime {
    /// 2026-06-01T00:00:00Z: every long-lived fixture is valid, `expired.pem` has expired.
    public static let now = Date(timeIntervalSince1970: 1_780_272_000)
    public static let nowText = "2026-06-01T00:00:00Z"
}

extension Certs {
    /// The `sha256/BASE64` SPKI pin of a fixture, as `scripts/make-certs.sh` computed it with the openssl CLI
    /// (certs/spki-pins.txt): an oracle independent of the code under test.
    public static func spkiPin(of file: String) -> String {
        let catalogue = String(decoding: bytes("spki-pins.txt"), as: UTF8.self)
        guard let line = catalogue.split(separator: "\n").first(where: { $0.hasPrefix(file + " ") }) else {
            fatalError("spki-pins.txt has no line for \(file)")
        }
        return String(line.split(separator: " ")[1])
    }

    /// What `openssl x509 -noout FIELD` prints for a fixture, after the `=`: e.g. `serial`, or the SHA-256
    /// fingerprint with `["-fingerprint", "-sha256"]`. Another oracle independent of the code under test.
    public static func opensslField(_ file: String, _ arguments: [String]) -> String {
        let text = opensslOutput(file, arguments)
        guard let equals = text.firstIndex(of: "=") else { fatalError("openssl x509 \(arguments) on \(file) printed '\(text)'") }
        return String(text[text.index(after: equals)...])
    }

    /// The subject hash `openssl rehash` names a fixture by in a hashed directory (`1a2b3c4d`).
    public static func opensslHash(_ file: String) -> String { opensslOutput(file, ["-subject_hash"]) }

    private static func opensslOutput(_ file: String, _ arguments: [String]) -> String {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run("openssl", ["x509", "-noout", "-in", path(file)] + arguments)
        } catch {
            fatalError("cannot run openssl: \(error)")
        }
        let text = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0 else { fatalError("openssl x509 \(arguments) on \(file) printed '\(text)'") }
        return text
    }
}
