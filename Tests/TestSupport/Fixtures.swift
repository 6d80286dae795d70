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
