import FileAccess
import FoundationEssentials
import OpenSSLWrapper
import TextSyntax

/// A bad input: a file, line or flag the user must fix (exit 2).
public struct InputError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Pins read from files and directories, per DESIGN §4.
public struct LoadedPins: Sendable {
    public var certificates: [PinnedCertificate] = []
    public var keyHashes: [PublicKeyPin] = []

    public init() {}

    public var count: Int { certificates.count + keyHashes.count }
}

/// Reads pin files: certificates (`.cer .crt .der .pem`) and hash pins (`.pin`). Errors name the file and line; the
/// caller says which flag or key the path came from.
public enum PinLoader {
    static let certificateExtensions: Set<String> = ["cer", "crt", "der", "pem"]
    static let hashExtension = "pin"

    /// Reads a pin file or a directory of them; a path that yields no pins is an error.
    public static func load(path: String) throws(InputError) -> LoadedPins {
        var pins = LoadedPins()
        try load(path: path, into: &pins)
        if pins.count == 0 {
            throw InputError("\(path): yields no pins (expected .cer, .crt, .der, .pem or .pin files)")
        }
        return pins
    }

    /// A `sha256/BASE64` or `pin-sha256="BASE64"` pin given as text, written at `source`.
    public static func keyPin(_ text: String, source: PinSource) throws(InputError) -> PublicKeyPin {
        switch PinFormat.parse(text) {
        case .success(let hash): return PublicKeyPin(hash: hash, source: source)
        case .failure(let error): throw InputError("\(UntrustedText.excerpt(text)): \(error.reason)")
        }
    }

    private static func load(path: String, into pins: inout LoadedPins) throws(InputError) {
        let kind: FileKind?
        do {
            kind = try FileSystem.kind(of: path)
        } catch {
            throw InputError("\(path): \(error.reason)")
        }
        guard let kind else { throw InputError("\(path): no such file or directory") }
        guard kind == .directory else {
            let type = Path.lowercasedExtension(of: path)
            guard certificateExtensions.contains(type) || type == hashExtension else {
                throw InputError("\(path): unknown pin file type '.\(type)' (expected .cer, .crt, .der, .pem or .pin)")
            }
            try loadFile(path, kind: type, into: &pins)
            return
        }
        let names: [String]
        do {
            names = try FileSystem.entries(ofDirectory: path)
        } catch {
            throw InputError("\(path): cannot list the directory: \(error.reason)")
        }
        for name in names where !name.hasPrefix(".") {
            let type = Path.lowercasedExtension(of: name)
            guard certificateExtensions.contains(type) || type == hashExtension else { continue }
            let file = Path.join(path, name)
            // Non-recursive: subdirectories are skipped. Anything else with a pin extension is read, so an entry that
            // cannot be (a dangling symbolic link, a named pipe) is an error naming it, never silently skipped
            // (DESIGN §4).
            if (try? FileSystem.kind(of: file)) == .directory { continue }
            try loadFile(file, kind: type, into: &pins)
        }
    }

    private static func loadFile(_ path: String, kind: String, into pins: inout LoadedPins) throws(InputError) {
        if kind == hashExtension {
            pins.keyHashes += try hashPins(inFile: path)
            return
        }
        let certificates: [X509Certificate]
        do {
            certificates = try CertificateParser.certificates(atPath: path)
        } catch {
            throw InputError(error.description)
        }
        for (index, certificate) in certificates.enumerated() {
            let source = PinSource(.file(path: path, line: nil, entry: certificates.count == 1 ? nil : index + 1))
            pins.certificates.append(PinnedCertificate(certificate: certificate, source: source))
        }
    }

    /// Hash pins from a `.pin` file: one per line, `#` starts a comment.
    public static func hashPins(inFile path: String) throws(InputError) -> [PublicKeyPin] {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw InputError("\(path): \(error.reason)")
        }
        return try hashPins(in: bytes, path: path)
    }

    /// Hash pins from the bytes of a `.pin` file read from `path` (named in sources and errors).
    public static func hashPins(in bytes: [UInt8], path: String) throws(InputError) -> [PublicKeyPin] {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw InputError("\(path): is UTF-16 text (it starts with a byte order mark); save it as UTF-8")
        }
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw InputError("\(path):\(line): \(UntrustedText.nulByteReason)")
        }
        // Editors on Windows start UTF-8 files with a byte order mark; it is not part of the first pin.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw InputError("\(path): not a text file (a .pin file holds sha256/BASE64 lines)")
        }
        var pins: [PublicKeyPin] = []
        // Split on Character.isNewline, not on "\n": Swift reads "\r\n" as one Character that is not "\n", so a
        // CRLF file would be one line and its first "#" comment would swallow every pin after it.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = line.trimming(\.isBlankOrNewline)
            guard !content.isEmpty else { continue }
            switch PinFormat.parse(content) {
            case .success(let hash):
                pins.append(PublicKeyPin(hash: hash, source: PinSource(.file(path: path, line: index + 1, entry: nil))))
            case .failure(let error):
                throw InputError("\(path):\(index + 1): \(error.reason)")
            }
        }
        return pins
    }
}
