import FoundationEssentials

/// OkHttp's pin strings: `sha256/BASE64` or `sha1/BASE64`, read as leniently as OkHttp reads them.
public enum OkHttpPin {
    /// Parses a pin as `CertificatePinner.Pin` does:
    ///
    ///     pin.startsWith("sha1/") -> ... pin.substring("sha1/".length).decodeBase64()
    ///         ?: throw IllegalArgumentException("Invalid pin hash: $pin")
    ///     pin.startsWith("sha256/") -> ... same ...
    ///     else -> throw IllegalArgumentException("pins must start with 'sha256/' or 'sha1/': $pin")
    ///
    /// okio's `decodeBase64` accepts both base64 alphabets, missing padding and whitespace, and checks no length: a
    /// pin of the wrong length is accepted and can never match (a warning says so).
    public static func parse(_ text: String, source: PinSource) throws(OkHttpPattern.Refusal) -> PublicKeyPin {
        // UTF-16 units, as Kotlin's startsWith and substring count them.
        let units = Array(text.utf16)
        let algorithm: SPKIHashAlgorithm
        if units.starts(with: "sha1/".utf16) {
            algorithm = .sha1
        } else if units.starts(with: "sha256/".utf16) {
            algorithm = .sha256
        } else {
            throw OkHttpPattern.Refusal(okhttp: "pins must start with 'sha256/' or 'sha1/': \(text)")
        }
        guard let hash = decodeBase64(units.dropFirst(algorithm.rawValue.count + 1)) else {
            throw OkHttpPattern.Refusal(okhttp: "Invalid pin hash: \(text)")
        }
        // The text is kept when it differs only in its base64 (URL-safe, unpadded): whitespace okio skips would not
        // survive a text list, and is nothing a reviewer greps for.
        let canonical = algorithm.rawValue + "/" + Data(hash).base64EncodedString()
        let plain = text.utf8.dropFirst(algorithm.rawValue.count + 1).allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [0x2B, 0x2F, 0x2D, 0x5F, 0x3D].contains(byte)
        }
        return PublicKeyPin(algorithm: algorithm, hash: hash, source: source,
                            written: text == canonical || !plain ? nil : .init(library: .okhttp, text: text))
    }

    /// okio's `decodeBase64ToArray`, over UTF-16 code units as Kotlin reads a String: trailing `=`, `\n`, `\r`,
    /// space and tab dropped; those four whitespace characters skipped anywhere else; `+`/`-` read as 62 and `/`/`_`
    /// as 63; nil for any other character (an `=` inside, a non-ASCII one) or one character left over after the
    /// last full group ("6 bits is a truncated byte!"). The unused low bits of a short last group are not checked.
    static func decodeBase64(_ text: ArraySlice<UInt16>) -> [UInt8]? {
        let whitespace: [UInt16] = [0x0A, 0x0D, 0x20, 0x09]
        var units = text
        while let last = units.last, last == 0x3D || whitespace.contains(last) { units.removeLast() }
        var output: [UInt8] = []
        var word: UInt32 = 0
        var count = 0
        for unit in units {
            let bits: UInt32
            switch unit {
            case 0x41...0x5A: bits = UInt32(unit - 0x41)  // A-Z
            case 0x61...0x7A: bits = UInt32(unit - 0x61) + 26  // a-z
            case 0x30...0x39: bits = UInt32(unit - 0x30) + 52  // 0-9
            case 0x2B, 0x2D: bits = 62  // + -
            case 0x2F, 0x5F: bits = 63  // / _
            case _ where whitespace.contains(unit): continue
            default: return nil
            }
            word = (word << 6 | bits) & 0xFF_FFFF
            count += 1
            if count % 4 == 0 { output += [UInt8(word >> 16), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)] }
        }
        switch count % 4 {
        case 1: return nil
        case 2: output.append(UInt8(word >> 4 & 0xFF))
        case 3: output += [UInt8(word >> 10 & 0xFF), UInt8(word >> 2 & 0xFF)]
        default: break
        }
        return output
    }
}
