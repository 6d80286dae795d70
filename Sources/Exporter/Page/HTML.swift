/// The one escaping rule of the status page's HTML, and the encoding of the query values its links carry: every
/// name a policy file, a server or a client gives is data there.
enum HTML {
    /// Text safe inside an element or a quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A link to `/probe` with these query parameters, escaped for an attribute.
    static func probeLink(_ parameters: [(String, String)]) -> String {
        escape("/probe?" + parameters.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&"))
    }

    /// A query value: every byte but the unreserved ones percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            let unreserved = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return encoded
    }
}
