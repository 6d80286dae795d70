import Foundation

/// The openssl command-line tool, for making certificates a test needs at run time (an oracle independent of the
/// code under test).
public enum OpenSSLCLI {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `openssl arguments` in `directory`; throws with its output when it fails.
    public static func run(_ arguments: [String], in directory: String) throws {
        let result = try Subprocess.run("openssl", arguments, in: directory)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(result.stdout)\(result.stderr)")
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

extension OpenSSLCLI {
    /// A configuration file `name` of two extension sections for `-extensions` (and `-config`/`-extfile`): `ca` for
    /// a CA (keyCertSign, cRLSign), `leaf` for a TLS server certificate for `leafName`.
    public static func writeExtensions(_ name: String, leafName: String, in directory: String) throws {
        try write(name, """
            [ca]
            basicConstraints = critical, CA:TRUE
            keyUsage = critical, keyCertSign, cRLSign
            [leaf]
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth
            subjectAltName = DNS:\(leafName)
            """, in: directory)
    }

    /// A root (3650 days), an intermediate (1000 days) and a leaf for api.example.com (90 days), all from now, in
    /// `directory`: `dated-root.pem`, `dated-intermediate.pem`, `dated-leaf.pem` and `dated-chain.pem` (leaf and
    /// intermediate). Their notAfter dates differ, so which one a forecast names can be told apart.
    public static func datedChain(in directory: String) throws {
        try writeExtensions("dated-ca.cnf", leafName: "api.example.com", in: directory)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try run(["req", "-x509"] + ec + ["-keyout", "dated-root.key", "-out", "dated-root.pem", "-subj", "/CN=Dated Root",
                 "-days", "3650", "-extensions", "ca", "-config", "dated-ca.cnf"], in: directory)
        for (name, issuer, days, ext) in [("dated-intermediate", "dated-root", "1000", "ca"),
                                          ("dated-leaf", "dated-intermediate", "90", "leaf")] {
            try run(["req", "-new"] + ec + ["-keyout", name + ".key", "-out", name + ".csr", "-subj",
                     name == "dated-leaf" ? "/CN=api.example.com" : "/CN=Dated Intermediate",
                     "-config", "dated-ca.cnf"], in: directory)
            try run(["x509", "-req", "-in", name + ".csr", "-CA", issuer + ".pem", "-CAkey", issuer + ".key",
                     "-CAcreateserial", "-days", days, "-extfile", "dated-ca.cnf", "-extensions", ext,
                     "-out", name + ".pem"], in: directory)
        }
        let leaf = try String(contentsOfFile: directory + "/dated-leaf.pem", encoding: .utf8)
        let intermediate = try String(contentsOfFile: directory + "/dated-intermediate.pem", encoding: .utf8)
        try write("dated-chain.pem", leaf + intermediate, in: directory)
    }

    /// `openssl x509 -noout -enddate` of a certificate, as ISO 8601 UTC: an oracle independent of pinctl.
    public static func notAfter(_ file: String) throws -> String {
        let date = try output(["x509", "-in", file, "-noout", "-enddate"]).replacingOccurrences(of: "notAfter=", with: "")
        return try standardOutput(["date", "-u", "-d", date, "+%Y-%m-%dT%H:%M:%SZ"])
    }

    private static func output(_ arguments: [String]) throws -> String {
        try standardOutput(["openssl"] + arguments)
    }

    /// What a command found on the PATH prints, trimmed.
    private static func standardOutput(_ command: [String]) throws -> String {
        try Subprocess.run(command[0], Array(command.dropFirst())).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func write(_ name: String, _ text: String, in directory: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }
}
