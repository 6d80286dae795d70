import Foundation

/// OkHttp's pin strings: `sha256/BASE64` or `sha1/BASE64`, read as leniently as OkHttp reads them.
public enum OkHttpPin {
    /// Parses a pin as `CertificatePinner.Pin` does:
    ///
    ///     pin.startsWith("sha1/") -> ... pin.substring("sha1/".length).decodeBase64() ?: throw IllegalArgumentException("Invalid pin hash: $pin")
    ///     pin.startsWith("sha256/") -> ... same ...
    ///     else -> throw IllegalArgumentException("pins must start with 'sha256/' or 'sha1/': $pin")
    ///
    /// okio's `decodeBase64` accepts both base64 alphabets, missing padding and whitespace, and checks no length: a
    /// pin of the wrong length is accepted and can never match (a warning says so).
    public static func parse(_ text: String, source: PinSource) throws(OkHttpPattern.Refusal) -> PublicKeyPin {
        let algorithm: SPKIHashAlgorithm
        if text.hasPrefix("sha1/") {
            algorithm = .sha1
        } else if text.hasPrefix("sha256/") {
            algorithm = .sha256
        } else {
            throw OkHttpPattern.Refusal(message: "pins must start with 'sha256/' or 'sha1/': \(text)")
        }
        guard let hash = decodeBase64(String(text.dropFirst(algorithm.rawValue.count + 1))) else {
            throw OkHttpPattern.Refusal(message: "Invalid pin hash: \(text)")
        }
        return PublicKeyPin(algorithm: algorithm, hash: hash, source: source)
    }

    /// okio's lenient decoder: trailing `=` and whitespace dropped, whitespace inside skipped, `-`/`_` read as
    /// `+`/`/`; nil for any other character, or one character left over after the last full group.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        let whitespace: Set<Character> = [" ", "\t", "\n", "\r"]
        var body = Substring(text)
        while let last = body.last, last == "=" || whitespace.contains(last) { body = body.dropLast() }
        var standard = ""
        for character in body where !whitespace.contains(character) {
            switch character {
            case "-": standard.append("+")
            case "_": standard.append("/")
            case "A"..."Z", "a"..."z", "0"..."9", "+", "/": standard.append(character)
            default: return nil
            }
        }
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
