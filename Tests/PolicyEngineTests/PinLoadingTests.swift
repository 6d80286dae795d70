import Foundation
import PolicyEngine
import TestSupport
import Testing

/// Loads every path in turn, as a command line with several pin paths does.
func loadPins(_ paths: [String]) throws -> LoadedPins {
    var pins = LoadedPins()
    for path in paths {
        let loaded = try PinLoader.load(path: path)
        pins.certificates += loaded.certificates
        pins.keyHashes += loaded.keyHashes
    }
    return pins
}

/// Checks that loading throws an `InputError` whose description contains every fragment.
func expectInputError(
    paths: [String] = [], saying fragments: String...,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: InputError.self, sourceLocation: sourceLocation) {
        try loadPins(paths)
    }
    for fragment in fragments {
        #expect(error?.description.contains(fragment) == true, "error: \(error?.description ?? "none")",
            sourceLocation: sourceLocation)
    }
}

/// DESIGN §4: pin files, directories and `--pin` values.
@Suite("Pin loading")
struct PinLoadingTests {
    static let leafPin = Certs.spkiPin(of: "leaf.pem")
    static let intermediateBase64 = String(Certs.spkiPin(of: "intermediate-ca.pem").dropFirst("sha256/".count))
    static let rootPin = Certs.spkiPin(of: "root-ca.pem")

    // MARK: .pin files

    @Test func pinFileReadsBothFormsSkippingCommentsAndBlankLines() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("api.pin", text: """
                # pins for api.example.com

                \(Self.leafPin)  # CN=pinning.test
                \t
                  pin-sha256="\(Self.intermediateBase64)"; # RFC 7469, with its semicolon
                \(Self.rootPin)
                """)
            let pins = try loadPins([file])
            #expect(pins.certificates.isEmpty)
            #expect(pins.keyHashes.map(\.text) == [Self.leafPin, "sha256/" + Self.intermediateBase64, Self.rootPin])
            #expect(pins.keyHashes.map(\.source.description) == ["\(file):3", "\(file):5", "\(file):6"])
            #expect(pins.keyHashes[0].hash == Certs.one("leaf.pem").spkiSHA256)
        }
    }

    @Test func pinFileWithWindowsLineEndingsReadsEveryLine() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("crlf.pin", text: "# header\r\n\(Self.leafPin)\r\n\(Self.rootPin)\r\n")
            let pins = try loadPins([file])
            #expect(pins.keyHashes.map(\.text) == [Self.leafPin, Self.rootPin])
            #expect(pins.keyHashes.map(\.source.description) == ["\(file):2", "\(file):3"])
            // Trailing comments must not swallow the following lines: the backup pin is still read.
            let commented = try directory.write(
                "backup.pin", text: "\(Self.leafPin)  # primary\r\n\(Self.rootPin)  # backup\r\n")
            let both = try loadPins([commented])
            #expect(both.keyHashes.map(\.text) == [Self.leafPin, Self.rootPin])
        }
    }

    @Test func fixturePinFilesHoldTheCataloguedPins() throws {
        let pins = try loadPins([Certs.path("pins")])
        // Sorted by name: intermediate.pin, leaf.pin, root.pin; each pin on line 2 after its header.
        #expect(pins.keyHashes.map(\.text) == ["sha256/" + Self.intermediateBase64, Self.leafPin, Self.rootPin])
        #expect(pins.keyHashes.map(\.source.description) == [
            Certs.path("pins/intermediate.pin") + ":2", Certs.path("pins/leaf.pin") + ":2",
            Certs.path("pins/root.pin") + ":2",
        ])
    }

    @Test("A bad line is an error naming the file and line", arguments: [
        ("hello", "not a pin: expected sha256/BASE64"),
        ("sha256/AAAA", "the pin decodes to 3 bytes; a SHA-256 pin has 32"),
        ("sha256/" + Data(repeating: 7, count: 20).base64EncodedString(), "decodes to 20 bytes"),
        ("sha256/not*base64!", "'not*base64!' is not valid base64"),
        ("pin-sha256=\(intermediateBase64)", "pin-sha256= needs a quoted value"),
        ("sha1/" + intermediateBase64, "not a pin"),
    ])
    func malformedLineIsAnErrorNamingFileAndLine(_ line: String, reason: String) throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("bad.pin", text: "# header\n\(Self.leafPin)\n\(line)  # comment\n")
            expectInputError(paths: [file], saying: "\(file):3: ", reason)
        }
    }

    @Test func pinFileThatIsNotTextIsAnError() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("binary.pin", bytes: [0x80, 0xFF, 0x00, 0xC3])
            expectInputError(paths: [file], saying: file, "not a text file")
        }
    }

    // MARK: Certificate files

    @Test func certificateFilesOfEveryExtensionPinWholeCertificates() throws {
        try TemporaryDirectory.with { directory in
            let der = try directory.write("root.cer", bytes: Certs.bytes("root-ca.der"))
            let crt = try directory.write("intermediate.CRT", bytes: Certs.bytes("intermediate-ca.pem"))
            let bundle = Certs.path("leaf-chain.pem")
            let pins = try loadPins([der, crt, bundle, Certs.path("leaf.der")])
            #expect(pins.keyHashes.isEmpty)
            #expect(pins.certificates.map(\.certificate) == ["root-ca.pem", "intermediate-ca.pem", "leaf.pem",
                "intermediate-ca.pem", "leaf.pem"].map(Certs.one))
            #expect(pins.certificates.map(\.source.description) == [der, crt, bundle + "#1", bundle + "#2",
                Certs.path("leaf.der")])
        }
    }

    @Test func unparseableCertificateFileIsAnErrorNamingTheFile() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("broken.pem", text: "not a certificate\n")
            expectInputError(paths: [file], saying: "\(file): ", "neither a PEM nor a DER certificate")
            let copy = try directory.write("key.pem", bytes: Certs.bytes("leaf.key"))
            expectInputError(paths: [copy], saying: copy, "no certificate")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads files whatever their mode"))
    func unreadableFileIsAnErrorNamingTheFile() throws {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("secret.pin", text: Self.leafPin + "\n")
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: file)
            expectInputError(paths: [directory.path], saying: file, "cannot be read")
        }
    }

    // MARK: Directories

    @Test func directoryIsReadNonRecursivelyIgnoringHiddenFilesAndOtherExtensions() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("b-leaf.pem", bytes: Certs.bytes("leaf.pem"))
            try directory.write("a-root.der", bytes: Certs.bytes("root-ca.der"))
            try directory.write("api.pin", text: Self.rootPin + "\n")
            try directory.write("README.md", text: "garbage that would not parse\n")
            try directory.write("notes.txt", text: "sha256/garbage\n")
            try directory.write(".hidden.pin", text: "garbage\n")
            try directory.write(".old.pem", text: "garbage\n")
            try directory.makeDirectory("nested")
            try directory.write("nested/deep.pin", text: "garbage\n")
            try directory.makeDirectory("looks-like-a-file.pem")

            let pins = try loadPins([directory.path])
            #expect(pins.certificates.map(\.source.description)
                == [directory.path("a-root.der"), directory.path("b-leaf.pem")])
            #expect(pins.certificates.map(\.certificate) == [Certs.one("root-ca.pem"), Certs.one("leaf.pem")])
            #expect(pins.keyHashes.map(\.source.description) == [directory.path("api.pin") + ":1"])
        }
    }

    @Test func badFileInADirectoryIsAnErrorNotSkipped() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("good.pin", text: Self.leafPin + "\n")
            let bad = try directory.write("zz-bad.crt", text: "garbage\n")
            expectInputError(paths: [directory.path], saying: bad)
        }
    }

    @Test func danglingSymlinkInADirectoryIsAnErrorNotSkipped() throws {
        try TemporaryDirectory.with { directory in
            try directory.write("good.pin", text: Self.leafPin + "\n")
            let link = directory.path("gone.pem")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: directory.path("deleted.pem"))
            expectInputError(paths: [directory.path], saying: link, "no such file")
        }
    }

    // MARK: Paths that yield nothing

    @Test func pathYieldingNoPinsIsAnInputError() throws {
        try TemporaryDirectory.with { directory in
            expectInputError(paths: [directory.path], saying: "\(directory.path): yields no pins")
            try directory.write("notes.txt", text: Self.leafPin + "\n")
            expectInputError(paths: [directory.path], saying: "yields no pins")
            let commentsOnly = try directory.write("empty.pin", text: "# nothing pinned yet\n\n")
            expectInputError(paths: [commentsOnly], saying: "\(commentsOnly): yields no pins")
        }
    }

    @Test func eachPathMustYieldPinsOnItsOwn() throws {
        try TemporaryDirectory.with { directory in
            let empty = try directory.makeDirectory("empty")
            expectInputError(paths: [Certs.path("pins"), empty], saying: "\(empty): yields no pins")
        }
    }

    @Test func missingPathAndUnknownFileTypeAreErrors() throws {
        try TemporaryDirectory.with { directory in
            let missing = directory.path("absent")
            expectInputError(paths: [missing], saying: "\(missing): no such file or directory")
            let text = try directory.write("pins.txt", text: Self.leafPin + "\n")
            expectInputError(paths: [text], saying: text, "unknown pin file type '.txt'")
        }
    }

    // MARK: Inline pins

    @Test func inlinePinsAcceptBothFormsAndKeepTheirSource() throws {
        let source = PinSource(.argument(name: "--pin", index: 2))
        let sha256 = try PinLoader.keyPin(Self.leafPin, source: source)
        #expect(sha256.text == Self.leafPin)
        #expect(sha256.source.description == "--pin #2")
        let rfc7469 = try PinLoader.keyPin("pin-sha256=\"\(Self.intermediateBase64)\"", source: source)
        #expect(rfc7469.hash == Certs.one("intermediate-ca.pem").spkiSHA256)
    }

    @Test func malformedInlinePinIsAnError() {
        let error = #expect(throws: InputError.self) {
            try PinLoader.keyPin("sha256/AAAA", source: PinSource("test"))
        }
        #expect(error?.description.contains("sha256/AAAA: ") == true)
        #expect(error?.description.contains("3 bytes") == true)
    }

    @Test func noPathsLoadNothing() throws {
        let pins = try loadPins([])
        #expect(pins.certificates.isEmpty && pins.keyHashes.isEmpty)
    }

    // MARK: Writing pins back, and using them

    @Test func pinsAreWrittenBackInSHA256Form() throws {
        let rfc7469 = try PinFormat.parse("pin-sha256=\"\(Self.intermediateBase64)\"").get()
        #expect(PinFormat.text(forSPKIHash: rfc7469) == "sha256/" + Self.intermediateBase64)
        #expect(PinFormat.pin(of: Certs.one("leaf.pem")) == Self.leafPin)
    }

    @Test func loadedPinFileServesPublicKeyModeWithItsSource() throws {
        let pins = try loadPins([Certs.path("pins/intermediate.pin")])
        let evaluation = try evaluate(
            ["leaf.pem", "intermediate-ca.pem"],
            with: AFNetworkingPolicy(mode: .publicKey, pinnedKeyHashes: pins.keyHashes))
        expectVerdict(evaluation, is: .pinned(at: 1))
        #expect(evaluation.matchedPin?.source.description == Certs.path("pins/intermediate.pin") + ":2")
    }
}
