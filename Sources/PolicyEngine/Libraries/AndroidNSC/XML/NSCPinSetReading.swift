import FileAccess
import FoundationEssentials
import OpenSSLWrapper
import XMLTree

// The `<pin-set>` of a config, as Android's XmlConfigSource reads it.
extension NSCXMLReader.Reader {
    /// `parsePinSet`: the expiration, then each `<pin>`; other children are skipped; duplicates collapse.
    mutating func pinSet(_ element: XMLElement) throws(ConfigurationError) -> NetworkSecurityConfig.PinSet {
        var expiration: Date?
        if let text = element.attribute("expiration")?.value {
            guard let date = NSCValueDecoding.expirationDate(text) else {
                throw error(element, "Invalid expiration date in pin-set: \(text) (expected yyyy-MM-dd)")
            }
            expiration = date
        }
        var pins: [PublicKeyPin] = []
        var texts: [String] = []
        for child in element.children where child.name != "pin" { skip(child) }
        for child in element.children where child.name == "pin" {
            let pin = try self.pin(child)
            if !pins.contains(pin) {
                pins.append(pin)
                texts.append(NSCValueDecoding.javaTrim(child.text))
            }
        }
        return NetworkSecurityConfig.PinSet(pins: pins, texts: texts, expiration: expiration)
    }

    /// `parsePin`: the digest algorithm, then the text, trimmed and decoded with Android's Base64, 32 bytes.
    func pin(_ element: XMLElement) throws(ConfigurationError) -> PublicKeyPin {
        guard element.children.isEmpty else { throw error(element, "pin contains additional elements") }
        let algorithm = element.attribute("digest")?.value
        // Pin.isSupportedDigestAlgorithm: "SHA-256".equalsIgnoreCase(algorithm)
        guard algorithm?.lowercased() == "sha-256" else {
            throw error(element, "Unsupported pin digest algorithm: \(algorithm ?? "null")")
        }
        let text = NSCValueDecoding.javaTrim(element.text)
        guard !text.isEmpty else { throw error(element, "Missing pin digest") }
        // A pin copied with OkHttp's prefix: "sha256/" is base64 too, so it decodes into the wrong bytes.
        let hint = text.hasPrefix("sha256/") ? " (write the base64 alone, without sha256/)" : ""
        guard let hash = NSCValueDecoding.androidBase64(text) else {
            throw error(element, "Invalid pin digest: \(text) is not base64\(hint)")
        }
        guard hash.count == 32 else {
            throw error(element, "digest length \(hash.count) does not match expected length for SHA-256 of 32"
                + hint)
        }
        return PublicKeyPin(hash: hash, source: PinSource(.configuration(path: path, line: element.line,
                                                                        keyPath: "<pin>")))
    }
}
