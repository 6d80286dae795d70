import Foundation
import Testing
import TestSupport

/// `pinctl backup-key`: a key only its owner can read, a request that verifies, the pin of its key as the openssl CLI
/// computes it, and nothing overwritten without --force.
@Suite struct BackupKeyCommandTests {
    /// `pinctl backup-key arguments` run in `directory`.
    func backupKey(_ arguments: [String], in directory: TemporaryDirectory) throws -> PinctlProcess.Result {
        try PinctlProcess.run(["backup-key"] + arguments, in: directory.path)
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The SPKI pin of the request's key, computed by the openssl CLI.
    func opensslPin(ofRequest request: String, in directory: TemporaryDirectory) throws -> String {
        "sha256/" + (try ShellPipeline.output("openssl req -in '\(request)' -pubkey -noout | openssl pkey -pubin "
            + "-outform der | openssl dgst -sha256 -binary | base64", in: directory.path))
    }

    /// Checks what every backup must be: a verifying request for the key written beside it, the key 0600, and the
    /// printed pin (the last line) the request key's pin.
    func expectBackup(in dir: String, of result: PinctlProcess.Result, directory: TemporaryDirectory) throws {
        #expect(result.status == 0, "\(result)")
        let key = dir + "/backup.key"
        let request = dir + "/backup.csr"
        #expect(try mode(directory.path(key)) == 0o600)
        #expect(String(decoding: bytes(directory.path(key)) ?? Data(), as: UTF8.self)
            .hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let verified = try ShellPipeline.output("openssl req -in '\(request)' -verify -noout 2>&1", in: directory.path)
        #expect(verified == "Certificate request self-signature verify OK")
        let requestKey = try ShellPipeline.output("openssl req -in '\(request)' -pubkey -noout", in: directory.path)
        let privateKeysPublicHalf = try ShellPipeline.output("openssl pkey -in '\(key)' -pubout", in: directory.path)
        #expect(requestKey == privateKeysPublicHalf, "the request carries the key written beside it")
        let pin = try opensslPin(ofRequest: request, in: directory)
        #expect(LiveRun.lines(result.stdout).last.map(String.init) == pin)
    }

    func subject(ofRequest request: String, in directory: TemporaryDirectory) throws -> String {
        try ShellPipeline.output("openssl req -in '\(request)' -noout -subject -nameopt RFC2253", in: directory.path)
    }

    @Test func theDefaultIsAnECDSAP256KeyForCNBackupInANewDirectory() throws {
        try TemporaryDirectory.with { directory in
            let result = try backupKey(["--out", "rotation/next"], in: directory)

            try expectBackup(in: "rotation/next", of: result, directory: directory)
            let text = try ShellPipeline.output("openssl pkey -in rotation/next/backup.key -noout -text",
                                                in: directory.path)
            #expect(text.contains("NIST CURVE: P-256"), "\(text)")
            #expect(try subject(ofRequest: "rotation/next/backup.csr", in: directory) == "subject=CN=backup")
            #expect(result.stdout.contains("wrote rotation/next/backup.key (ECDSA P-256 private key"), "\(result)")
        }
    }

    @Test(arguments: [
        ("CN=api.example.com,O=Example\\, Inc.", "subject=CN=api.example.com,O=Example\\, Inc."),
        ("/C=DE/O=Example/CN=api.example.com", "subject=CN=api.example.com,O=Example,C=DE"),
    ])
    func rsaKeyForTheSubjectGiven(_ given: String, _ printed: String) throws {
        try TemporaryDirectory.with { directory in
            let result = try backupKey(["--out", ".", "--type", "rsa", "--subject", given], in: directory)

            try expectBackup(in: ".", of: result, directory: directory)
            let text = try ShellPipeline.output("openssl pkey -in backup.key -noout -text", in: directory.path)
            #expect(text.hasPrefix("Private-Key: (2048 bit"), "\(text)")
            #expect(try subject(ofRequest: "backup.csr", in: directory) == printed)
        }
    }

    @Test func theKeyIsPrivateWhateverTheUmask() throws {
        try TemporaryDirectory.with { directory in
            let result = try PinctlProcess.runShell("umask 000 && \"$PINCTL\" backup-key --out next",
                                                    in: directory.path)

            try expectBackup(in: "next", of: result, directory: directory)
            #expect(try mode(directory.path("next/backup.csr")) == 0o666, "the umask is honoured for the request")
        }
    }

    @Test func nothingIsOverwrittenWithoutForce() throws {
        try TemporaryDirectory.with { directory in
            let first = try backupKey(["--out", "next"], in: directory)
            try #require(first.status == 0, "\(first)")
            let key = bytes(directory.path("next/backup.key"))
            let request = bytes(directory.path("next/backup.csr"))

            let again = try backupKey(["--out", "next"], in: directory)

            #expect(again.status == 2, "\(again)")
            #expect(again.stderr.contains("would overwrite next/backup.key, next/backup.csr; nothing was written "
                + "(use --force to overwrite)"), "\(again)")
            #expect(again.stdout.isEmpty)
            #expect(bytes(directory.path("next/backup.key")) == key)
            #expect(bytes(directory.path("next/backup.csr")) == request)

            let forced = try backupKey(["--out", "next", "--force"], in: directory)

            try expectBackup(in: "next", of: forced, directory: directory)
            #expect(bytes(directory.path("next/backup.key")) != key)
        }
    }

    @Test func anExistingRequestAloneStopsTheKeyBeingWritten() throws {
        try TemporaryDirectory.with { directory in
            try directory.makeDirectory("next")
            try directory.write("next/backup.csr", text: "mine\n")

            let result = try backupKey(["--out", "next"], in: directory)

            #expect(result.status == 2, "\(result)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("next")) == ["backup.csr"])
            #expect(bytes(directory.path("next/backup.csr")) == Data("mine\n".utf8))
        }
    }

    @Test(arguments: [
        (["--subject", "CN"], "expected ATTRIBUTE=VALUE pairs"),
        (["--subject", "CN=a,,O=b"], "expected ATTRIBUTE=VALUE pairs"),
        (["--subject", "XX=1"], "--subject XX=1: add the attribute XX failed: unknown object name"),
        (["--type", "dsa"], "--type"),
    ])
    func badInputExitsTwoAndWritesNothing(_ arguments: [String], _ says: String) throws {
        try TemporaryDirectory.with { directory in
            let result = try backupKey(["--out", "next"] + arguments, in: directory)

            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains(says), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: directory.path("next")))
        }
    }
}
