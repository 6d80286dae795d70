import FoundationEssentials
import OpenSSLWrapper

/// A pin as someone wrote it, read every way it could be meant: an optional prefix, then bytes in base64, base64url,
/// hex or colon-separated hex.
struct PinText {
    /// One way of reading the text as bytes.
    struct Reading: Equatable {
        let bytes: [UInt8]
        let encoding: PinDiagnosis.Encoding
        let unpadded: Bool
    }

    /// The prefix as written (`sha256/`, `sha1/`, `pin-sha256=`, `pin-sha1=`), or nil.
    let prefix: String?
    /// What follows the prefix (without `pin-sha256=`'s quotes).
    let body: Substring

    init(_ raw: String) {
        let text = Substring(raw.trimming(\.isBlank))
        for prefix in ["sha256/", "sha1/"] where text.hasPrefix(prefix) {
            self.prefix = prefix
            body = text.dropFirst(prefix.count)
            return
        }
        for prefix in ["pin-sha256=", "pin-sha1="] where text.hasPrefix(prefix) {
            self.prefix = prefix
            let value = text.dropFirst(prefix.count)
            let quoted = value.count >= 2 && value.first == "\"" && value.last == "\""
            body = quoted ? value.dropFirst().dropLast() : value
            return
        }
        prefix = nil
        body = text
    }

    /// The readings that are as long as a SHA-256 or SHA-1 digest: the only ones that can match.
    var readings: [Reading] {
        let lengths = Set(DigestAlgorithm.allCases.map(\.length))
        return allReadings.filter { lengths.contains($0.bytes.count) }
    }

    /// Every reading of the body, whatever its length.
    var allReadings: [Reading] {
        var readings: [Reading] = []
        let characters = Array(body.utf8)
        if let bytes = Self.hex(characters) {
            readings.append(Reading(bytes: bytes, encoding: .hex, unpadded: false))
        }
        if characters.contains(UInt8(ascii: ":")), let bytes = Self.colonHex(characters) {
            readings.append(Reading(bytes: bytes, encoding: .colonHex, unpadded: false))
        }
        // A text with neither '-' nor '_' reads the same in both alphabets: it is called base64.
        let urlSafe = characters.contains(UInt8(ascii: "-")) || characters.contains(UInt8(ascii: "_"))
        if let (bytes, unpadded) = Self.base64(characters, urlSafe: urlSafe) {
            readings.append(Reading(bytes: bytes, encoding: urlSafe ? .base64url : .base64, unpadded: unpadded))
        }
        return readings
    }

    private static func hex(_ characters: [UInt8]) -> [UInt8]? {
        guard !characters.isEmpty, characters.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// `AB:CD:…`: two hex digits between colons.
    private static func colonHex(_ characters: [UInt8]) -> [UInt8]? {
        var bytes: [UInt8] = []
        for pair in characters.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
            guard pair.count == 2, let byte = hex(Array(pair))?.first else { return nil }
            bytes.append(byte)
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        Character(Unicode.Scalar(character)).hexDigitValue.map(UInt8.init)
    }

    /// Base64 in one alphabet, padded or not; whether the padding was missing.
    private static func base64(_ characters: [UInt8], urlSafe: Bool) -> (bytes: [UInt8], unpadded: Bool)? {
        // The characters of the other alphabet: one alphabet, never a mix.
        let foreign: [UInt8] = urlSafe ? [UInt8(ascii: "+"), UInt8(ascii: "/")] : [UInt8(ascii: "-"), UInt8(ascii: "_")]
        guard !characters.isEmpty, !characters.contains(where: foreign.contains) else { return nil }
        var standard = characters.map { character -> UInt8 in
            switch character {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: character
            }
        }
        let unpadded = standard.count % 4 != 0
        if unpadded { standard += Array(repeating: UInt8(ascii: "="), count: 4 - standard.count % 4) }
        guard let data = Data(base64Encoded: Data(standard)) else { return nil }
        return ([UInt8](data), unpadded)
    }
}
