import Foundation
import OpenSSLWrapper

/// A bad input: a file, line or flag the user must fix (exit 2).
public struct InputError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Pins read from files, directories and `--pin` values, per DESIGN §4.
public struct LoadedPins: Sendable {
    public var certificates: [PinnedCertificate] = []
    public var keyHashes: [PublicKeyPin] = []

    public init() {}
}

public enum PinLoader {
    static let certificateExtensions: Set<String> = ["cer", "crt", "der", "pem"]
    static let hashExtension = "pin"

    /// Reads every `--pins` path and `--pin` value; a path that yields no pins is an error.
    public static func load(paths: [String], inline: [String]) throws(InputError) -> LoadedPins {
        var pins = LoadedPins()
        for path in paths {
            let before = pins.certificates.count + pins.keyHashes.count
            try load(path: path, into: &pins)
            if pins.certificates.count + pins.keyHashes.count == before {
                throw InputError("--pins \(path): yields no pins (expected .cer, .crt, .der, .pem or .pin files)")
            }
        }
        for (index, value) in inline.enumerated() {
            switch PinFormat.parse(value) {
            case .success(let hash):
                let label = inline.count == 1 ? "--pin" : "--pin #\(index + 1)"
                pins.keyHashes.append(PublicKeyPin(sha256: hash, source: PinSource(label)))
            case .failure(let error):
                throw InputError("--pin \(value): \(error.reason)")
            }
        }
        return pins
    }

    private static func load(path: String, into pins: inout LoadedPins) throws(InputError) {
        let kind: FileKind?
        do {
            kind = try FileSystem.kind(of: path)
        } catch {
            throw InputError("--pins \(path): \(error.reason)")
        }
        guard let kind else { throw InputError("--pins \(path): no such file or directory") }
        guard kind == .directory else {
            let type = Path.lowercasedExtension(of: path)
            guard certificateExtensions.contains(type) || type == hashExtension else {
                throw InputError("--pins \(path): unknown pin file type '.\(type)' (expected .cer, .crt, .der, .pem or .pin)")
            }
            try loadFile(path, kind: type, into: &pins)
            return
        }
        let names: [String]
        do {
            names = try FileSystem.entries(ofDirectory: path)
        } catch {
            throw InputError("--pins \(path): cannot list the directory: \(error.reason)")
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
            throw InputError("--pins \(error.description)")
        }
        for (index, certificate) in certificates.enumerated() {
            let source = certificates.count == 1 ? path : "\(path)#\(index + 1)"
            pins.certificates.append(PinnedCertificate(certificate: certificate, source: PinSource(source)))
        }
    }

    /// Hash pins from a `.pin` file: one per line, `#` starts a comment.
    public static func hashPins(inFile path: String) throws(InputError) -> [PublicKeyPin] {
        let bytes: [UInt8]
        do {
            bytes = try FileInput.read(path)
        } catch {
            throw InputError("--pins \(path): \(error.reason)")
        }
        return try hashPins(in: bytes, path: path)
    }

    /// Hash pins from the bytes of a `.pin` file read from `path` (named in sources and errors).
    public static func hashPins(in bytes: [UInt8], path: String) throws(InputError) -> [PublicKeyPin] {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw InputError("--pins \(path): is UTF-16 text (it starts with a byte order mark); save it as UTF-8")
        }
        // Editors on Windows start UTF-8 files with a byte order mark; it is not part of the first pin.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        guard let text = String(validating: body, as: UTF8.self) else {
            throw InputError("--pins \(path): not a text file (a .pin file holds sha256/BASE64 lines)")
        }
        var pins: [PublicKeyPin] = []
        // Split on Character.isNewline, not on "\n": Swift reads "\r\n" as one Character that is not "\n", so a
        // CRLF file would be one line and its first "#" comment would swallow every pin after it.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !content.isEmpty else { continue }
            switch PinFormat.parse(content) {
            case .success(let hash):
                pins.append(PublicKeyPin(sha256: hash, source: PinSource("\(path):\(index + 1)")))
            case .failure(let error):
                throw InputError("\(path):\(index + 1): \(error.reason)")
            }
        }
        return pins
    }
}
