import Foundation
import PolicyEngine
import Testing
import TestSupport

/// A snapshot directory read as data: a membership file's errors quote nothing of what the file holds but a version
/// pinctl read, its size, lines, versions and roots are bounded, and a root file must hold the certificate its name
/// records (issue #32).
@Suite struct StoreSnapshotReadingTests {
    static let block = """
        version 24
        label Android 7.0 (API 24)
        date 2016-08-01
        source system/ca-certificates 0123abcd (android-7.0.0_r1)

        """

    /// Runs `body` with a snapshot directory whose android.txt is `membership`.
    func withSnapshots<T>(_ membership: String, _ body: (StoreSnapshots, TemporaryDirectory) throws -> T) throws -> T {
        try TemporaryDirectory.with { directory in
            try directory.write("FORMAT", text: "pinctl-stores 1\n")
            try directory.write("android.txt", text: membership)
            try directory.makeDirectory("roots")
            let location = StoreLocation(option: directory.path, environment: nil, executable: nil)
            return try body(try StoreSnapshots(location), directory)
        }
    }

    /// The error reading `membership` gives, with `FILE` for the membership file's path.
    func refusal(_ membership: String) throws -> String {
        try withSnapshots(membership) { snapshots, directory in
            do {
                _ = try snapshots.snapshots(of: "android")
                return "accepted"
            } catch {
                return "\(error)".replacingOccurrences(of: directory.path("android.txt"), with: "FILE")
            }
        }
    }

    static let secret = "ghp_R3allySecretTokenValue0123456789"

    static let hostileLines: [(String, String)] = [
        // A token file, a line of /proc/self/environ, a header: the line's first word is the secret's start.
        ("\(secret) x\n", "FILE:1: expected `KEY VALUE`, KEY one of version, label, date, source or root, a # "
            + "comment or a blank line"),
        (block + "\(secret) x\n", "FILE:5: expected `KEY VALUE`, KEY one of version, label, date, source or root, a "
            + "# comment or a blank line"),
        ("HOME=/root\u{0}TOKEN=\(secret) x\n", "FILE:1: holds a NUL byte: not a text file"),
        ("version \(secret)\n", "FILE:1: a version is dotted decimal numbers (24, 10.15, 20230311)"),
        (block + "root \(secret)\n", "FILE:5: version 24: a root id is 64 lowercase hex digits, optionally `-` and 8 "
            + "more"),
        (block + "label \(secret)\u{7}\n", "FILE:5: version 24: a second label line"),
        ("version 24\nlabel \(secret)\u{1B}[2J\n", "FILE:2: version 24: the label is not printable text of at most "
            + "256 characters"),
    ]

    @Test(arguments: hostileLines)
    func anErrorNamesTheLineAndWhatWasExpectedButQuotesNothingOfIt(_ membership: String, _ reason: String) throws {
        let message = try refusal(membership)

        #expect(message == reason)
        #expect(!message.contains("R3ally"))
    }

    /// A root id of megabytes was quoted whole; a line is now bounded before it is read.
    @Test func aLongLineIsRefusedWithoutQuotingIt() throws {
        let message = try refusal(Self.block + "root " + String(repeating: "a", count: 4_000_000) + "\n")

        #expect(message == "FILE:5: a line longer than 1024 bytes")
    }

    /// 100,000 versions took 78 s when each was compared with every earlier one: they are bounded, and looked up.
    @Test func theVersionsAndDatesAreChecked() throws {
        let root = "root \(String(repeating: "a", count: 64))\n"
        let versions = (1...1001).map { "version \($0)\ndate 2016-08-01\nsource s\n" + root }.joined()

        #expect(try refusal(versions) == "FILE:4001: more than 1000 versions")
        #expect(try refusal(Self.block + root + Self.block) == "FILE:6: version 24 again (first on line 1)")
        #expect(try refusal(Self.block + root + Self.block.replacingOccurrences(of: "version 24", with: "version 24.0"))
            == "FILE:6: version 24.0 again (first on line 1)")
        #expect(try refusal("version 24\ndate 2016-8-1\nsource s\n") == "FILE:2: version 24: the date is not a day "
            + "YYYY-MM-DD")
    }

    /// A day that does not exist is not a snapshot's date: 30 February, 29 February of a year that is not a leap
    /// year (2023; 2100, a century not divisible by 400), 31 April. 29 February 2024 and 2000 exist.
    @Test(arguments: [("2016-02-30", false), ("2023-02-29", false), ("2100-02-29", false), ("2016-04-31", false),
                      ("2016-13-01", false), ("2016-00-10", false), ("2016-01-00", false), ("2024-02-29", true),
                      ("2000-02-29", true), ("2016-12-31", true), ("2016-04-30", true)])
    func aDateIsADayThatExists(_ date: String, _ exists: Bool) throws {
        let membership = "version 24\ndate \(date)\nsource s\nroot \(String(repeating: "a", count: 64))\n"

        #expect(try refusal(membership)
            == (exists ? "accepted" : "FILE:2: version 24: the date is not a day YYYY-MM-DD"))
    }

    /// A run naming the platform of a file of no version judged nothing and said nothing, exit 0: refused, naming
    /// the file. (A version of no root is the builder's own output for a history whose last root went, so it is read.)
    @Test func aFileOfNoVersionIsRefused() throws {
        #expect(try refusal("") == "FILE: records no version (no `version` line): an empty or cut membership file; "
            + "rebuild it with scripts/build-stores.sh")
        #expect(try refusal("# pinctl store snapshot: android\n\n") == "FILE: records no version (no `version` "
            + "line): an empty or cut membership file; rebuild it with scripts/build-stores.sh")
        #expect(try refusal(Self.block) == "accepted")
    }

    /// A version's roots are the ids its lines list, in whatever order: a version whose ids ascend is read as the one
    /// before it with the differences applied, so every way of listing is read here against the sets written out.
    @Test func eachVersionHoldsTheRootsItListsInAnyOrder() throws {
        let (a, b, c, d) = (String(repeating: "a", count: 64), String(repeating: "b", count: 64),
                            String(repeating: "c", count: 64), String(repeating: "d", count: 64))
        let e = String(repeating: "e", count: 64)
        let second = a + "-0123abcd"
        let listed: [(String, [String])] = [
            ("1", [a, b, c]), ("2", [c, a]), ("3", [a, b, d]), ("4", [b, d, d]), ("5", [a, second, d]), ("6", [d]),
            ("7", [b, c, d, e]), ("8", [e]), ("9", [c]),
        ]
        let text = listed.map { version, ids in
            "version \(version)\ndate 2016-08-01\nsource s\n" + ids.map { "root \($0)\n" }.joined()
        }.joined(separator: "\n")

        let read = try StoreSnapshotFile.read(Array(text.utf8), platform: "android", path: "android.txt")
        let snapshots = read.versions

        let expected: [Set<String>] = [[a, b, c], [a, c], [a, b, d], [b, d], [a, second, d], [d], [b, c, d, e], [e],
                                       [c]]
        #expect(snapshots.map(\.version.description) == listed.map(\.0))
        #expect(snapshots.map(\.rootIDs) == expected)
        // Every id any version lists, for a run on every version; ids only a later version adds included.
        #expect(read.allRootIDs == [a, b, c, d, e, second])
        let withoutSecond = try StoreSnapshotFile.read(Array(text.replacingOccurrences(of: "root \(second)\n", with: "")
            .utf8), platform: "android", path: "android.txt")
        #expect(withoutSecond.allRootIDs == [a, b, c, d, e])
    }

    /// Every byte value at every place of an id, against the rule written out here: 64 of `0`-`9` and `a`-`f`, or
    /// those, `-` and 8 more (docs/platform-stores.md). The reader checks eight bytes at a time.
    @Test func aRootIDIsLowercaseHexAtEveryPlace() {
        let hex = Set("0123456789abcdef".utf8)
        let valid = Array((String(repeating: "0f", count: 32) + "-" + "9a9a9a9a").utf8)
        var wrong: [String] = []
        for length in [64, 73] {
            #expect(StoreSnapshotFile.isRootID(bytes: valid.prefix(length)))
            for place in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var id = Array(valid.prefix(length))
                    id[place] = byte
                    let expected = place == 64 ? byte == UInt8(ascii: "-") : hex.contains(byte)
                    if StoreSnapshotFile.isRootID(bytes: id[...]) != expected {
                        wrong.append("\(length):\(place):\(byte)")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(20))")
        #expect(!StoreSnapshotFile.isRootID(bytes: valid.prefix(63)))
        #expect(!StoreSnapshotFile.isRootID(bytes: valid.prefix(72)))
    }

    /// The last line needs no newline, a line may end in CR LF, and a NUL byte is named at its own line.
    @Test func linesEndAtANewlineOrTheEndOfTheFile() throws {
        let (first, last) = (String(repeating: "ab", count: 32), String(repeating: "cd", count: 32))
        let read = try StoreSnapshotFile.read(Array((Self.block + "root \(first)\r\nroot \(last)").utf8),
                                              platform: "android", path: "android.txt")

        #expect(read.versions.map(\.rootIDs) == [[first, last]])
        #expect(try refusal(Self.block + "root \(first)\n\n\u{0}\n") == "FILE:7: holds a NUL byte: not a text file")
    }

    // MARK: A root file holds the certificate its name records.

    /// The id docs/platform-stores.md gives a root, made by the openssl CLI: the SHA-256 of its SubjectPublicKeyInfo.
    static func keyID(_ certificate: String) throws -> String {
        try ShellPipeline.output("openssl x509 -in \(certificate) -pubkey -noout | openssl pkey -pubin -outform DER "
            + "| sha256sum | cut -c1-64")
    }

    static func certificateID(_ certificate: String) throws -> String {
        try ShellPipeline.output("openssl x509 -in \(certificate) -outform DER | sha256sum | cut -c1-8")
    }

    /// A root written as a TRUSTED CERTIFICATE that rejects serverAuth anchored TLS chains all the same: its trust
    /// settings were dropped when it was outlined. A snapshot's root is a plain certificate; one with trust settings,
    /// whatever they say, is refused as a changed snapshot, whether read whole or outlined (as a run reads it).
    @Test(arguments: ["-addreject serverAuth", "-addtrust clientAuth", "-addtrust serverAuth"])
    func aRootFileWithTrustSettingsIsRefused(_ settings: String) throws {
        let root = try Self.keyID("root-ca.pem")
        try withSnapshots(Self.block + "root \(root)\n") { snapshots, directory in
            let trusted = try ShellPipeline.output("openssl x509 -in root-ca.pem \(settings) -trustout")
            #expect(trusted.hasPrefix("-----BEGIN TRUSTED CERTIFICATE-----"))
            try directory.write("roots/\(root).pem", text: trusted + "\n")
            let expected = "\(directory.path("roots/\(root).pem")): a TRUSTED CERTIFICATE, with OpenSSL trust "
                + "settings: a snapshot's root is a plain certificate, as scripts/build-stores.sh writes it; the "
                + "snapshot was changed after it was written: rebuild it"

            let whole = #expect(throws: StoreSnapshotError.self) { try snapshots.root(root) }
            let outlined = #expect(throws: StoreSnapshotError.self) { try snapshots.rootOutline(root) }

            #expect(whole?.description == expected)
            #expect(outlined?.description == expected)
        }
    }

    @Test func aRootFileSwappedForAnotherCertificateIsRefusedNamingTheFile() throws {
        let root = try Self.keyID("root-ca.pem")
        let other = try Self.keyID("other-root-ca.pem")
        let membership = Self.block + "root \(root)\n" + Self.block.replacingOccurrences(of: "24", with: "25")
            + "root \(root)\nroot \(other)\n"
        try withSnapshots(membership) { snapshots, directory in
            try directory.write("roots/\(root).pem", bytes: Certs.bytes("root-ca.pem"))
            // The Other root's file holds the intermediate: a swapped root.
            try directory.write("roots/\(other).pem", bytes: Certs.bytes("intermediate-ca.pem"))
            let versions = try snapshots.snapshots(of: "android")
            let swapped = try Self.keyID("intermediate-ca.pem")

            #expect(try snapshots.root(root).subject == "CN=pinctl Test Root CA,O=pinctl Test")
            let error = #expect(throws: StoreSnapshotError.self) {
                try StoreDiff(versions[0], versions[1], in: snapshots)
            }
            #expect(error?.description == "\(directory.path("roots/\(other).pem")): holds a certificate of key SHA-256 "
                + "\(swapped), not the one its name records: the snapshot was changed after scripts/build-stores.sh "
                + "wrote it; rebuild it")
        }
    }

    /// A second certificate for a key gets `-` and the first 8 hex digits of its own SHA-256: both are checked.
    @Test func aSuffixedIDMustBeTheCertificatesOwnHash() throws {
        let root = try Self.keyID("root-ca.pem")
        let own = try Self.certificateID("root-ca.pem")
        let wrong = own == "00000000" ? "11111111" : "00000000"
        try withSnapshots(Self.block + "root \(root)-\(own)\nroot \(root)-\(wrong)\n") { snapshots, directory in
            try directory.write("roots/\(root)-\(own).pem", bytes: Certs.bytes("root-ca.pem"))
            try directory.write("roots/\(root)-\(wrong).pem", bytes: Certs.bytes("root-ca.pem"))

            #expect(try snapshots.root("\(root)-\(own)").subject == "CN=pinctl Test Root CA,O=pinctl Test")
            let error = #expect(throws: StoreSnapshotError.self) { try snapshots.root("\(root)-\(wrong)") }
            #expect(error?.description.contains("holds a certificate of key SHA-256 \(root) and certificate SHA-256 "
                + "\(own)…, not the one its name records") == true, "\(String(describing: error))")
        }
    }
}
