import FoundationEssentials

/// A `kTSKPublicKeyHashes` entry as TrustKit reads it (`parseTrustKitConfiguration`):
///
///     NSData *pinnedKeyHash = [[NSData alloc] initWithBase64EncodedString:hash
///                                                                options:(NSDataBase64DecodingOptions)0];
///     if ([pinnedKeyHash length] != CC_SHA256_DIGEST_LENGTH) { ... raise ... }
enum TrustKitPinText {
    /// The pin `text` writes, keeping the text where it is not the canonical base64 (so an export to TrustKit writes it
    /// back as the app has it); nil when TrustKit refuses it.
    static func pin(_ text: String, source: PinSource) -> PublicKeyPin? {
        guard let bytes = Data(base64Encoded: text), bytes.count == 32 else { return nil }
        let canonical = bytes.base64EncodedString()
        return PublicKeyPin(hash: [UInt8](bytes), source: source,
                            written: text == canonical ? nil : .init(library: .trustkit, text: text))
    }
}
