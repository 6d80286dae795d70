import FoundationEssentials
import OpenSSLWrapper
import TextSyntax

/// The textual pin forms of DESIGN §4.
public enum PinFormat {
    /// `sha256/BASE64`, the form pinctl always writes.
    public static func text(forSPKIHash hash: [UInt8]) -> String {
        "sha256/" + Data(hash).base64EncodedString()
    }

    /// The `sha256/` pin of a certificate's public key.
    public static func pin(of certificate: X509Certificate) -> String { text(forSPKIHash: certificate.spkiSHA256) }

    /// Parses one pin in either accepted form; the error says what is wrong with it.
    public static func parse(_ raw: String) -> Result<[UInt8], PinSyntaxError> {
        var text = raw.trimming(\.isBlank)
        if text.hasSuffix(";") { text = text.dropLast().trimming(\.isBlank) }
        let base64: Substring
        if text.hasPrefix("sha256/") {
            base64 = text.dropFirst("sha256/".count)
        } else if text.hasPrefix("pin-sha256=") {
            let value = text.dropFirst("pin-sha256=".count)
            guard value.count >= 2, value.first == "\"", value.last == "\"" else {
                return .failure(PinSyntaxError("pin-sha256= needs a quoted value: pin-sha256=\"BASE64\""))
            }
            base64 = value.dropFirst().dropLast()
        } else {
            return .failure(PinSyntaxError("not a pin: expected sha256/BASE64 or pin-sha256=\"BASE64\""))
        }
        guard let data = Data(base64Encoded: String(base64)) else {
            return .failure(PinSyntaxError("'\(UntrustedText.excerpt(base64))' is not valid base64"))
        }
        guard data.count == 32 else {
            return .failure(PinSyntaxError("the pin decodes to \(data.count) bytes; a SHA-256 pin has 32"))
        }
        return .success([UInt8](data))
    }
}

/// Why a string is not a pin.
public struct PinSyntaxError: Error, Sendable {
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}
