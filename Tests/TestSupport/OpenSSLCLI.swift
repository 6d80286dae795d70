import Foundation

/// The openssl command-line tool, for making certificates a test needs at run time (an oracle independent of the
/// code under test).
public enum OpenSSLCLI {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `openssl arguments` in `directory`; throws with its output when it fails.
    public static func run(_ arguments: [String], in directory: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// A self-signed P-256 certificate `name.pem` with key `name.key`, valid from now for 10 days (OpenSSL 3.0's
    /// `req` cannot set other dates: evaluate it `--at` `validTime`), with the given subject and subjectAltName value
    /// (as `-addext` takes it, raw bytes and all).
    public static func selfSigned(_ name: String, subject: String, subjectAltName: String, in directory: String) throws {
        try run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                 "-keyout", name + ".key", "-out", name + ".pem", "-subj", subject, "-days", "10",
                 "-addext", "subjectAltName=" + subjectAltName,
                 "-addext", "extendedKeyUsage=serverAuth"], in: directory)
    }

    /// An `--at` value inside the validity of a certificate `selfSigned` made during this test run.
    public static var validTime: String { "@\(Int(Date().timeIntervalSince1970) + 3600)" }
}
