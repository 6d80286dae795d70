import FoundationEssentials

/// One entry of `NSAppTransportSecurity` → `NSPinnedDomains`: a domain and the identities pinned for it.
///
/// Each kind is kept apart as Security's `parseNSPinnedDomains` (OSX/sec/Security/SecPolicy.c) reads it: nil when
/// the key is absent (that kind is not pinned by this entry), an empty list when the key is there but nothing in it
/// is usable (`hostNamePinned = true` is set before the value is looked at: every chain then fails that kind).
public struct ATSPinnedDomain: Sendable {
    /// The key as written: Security compares it with the host case-insensitively and never normalizes it.
    public let name: String
    /// `NSIncludesSubdomains` is `<true/>` (`nsIncludesSubdomains == kCFBooleanTrue`; a number or a string is not).
    public let includesSubdomains: Bool
    /// `NSPinnedLeafIdentities`, compared with the leaf only.
    public let leafIdentities: [PublicKeyPin]?
    /// `NSPinnedCAIdentities`, compared with every certificate of the built path but the leaf.
    public let caIdentities: [PublicKeyPin]?
    /// Where the entry is written, for messages.
    public let location: String

    public init(name: String, includesSubdomains: Bool, leafIdentities: [PublicKeyPin]?,
                caIdentities: [PublicKeyPin]?, location: String) {
        self.name = name
        self.includesSubdomains = includesSubdomains
        self.leafIdentities = leafIdentities
        self.caIdentities = caIdentities
        self.location = location
    }

    /// Whether the entry applies to `host` (one trailing dot already removed), as `parseNSPinnedDomains` decides:
    /// the key equals the host, or, with `NSIncludesSubdomains`, the host's parent — the host without its first
    /// label (`CopyParentDomainNameFromHostName`), so exactly one label more. Both compared case-insensitively.
    func applies(to host: String) -> Bool {
        if Self.sameName(name, host) { return true }
        guard includesSubdomains, let parent = Self.parent(of: host) else { return false }
        return Self.sameName(name, parent)
    }

    /// `CFStringFind(hostName, ".")`: the name after the first dot, nil when there is none or it is the last
    /// character.
    static func parent(of host: String) -> Substring? {
        guard let dot = host.firstIndex(of: "."), host.index(after: dot) < host.endIndex else { return nil }
        return host[host.index(after: dot)...]
    }

    /// `CFStringCompare(…, kCFCompareCaseInsensitive)`.
    static func sameName(_ name: String, _ other: some StringProtocol) -> Bool {
        name.lowercased() == other.lowercased()
    }

    /// The host as `parseNSPinnedDomains` matches it: "Strip the trailing dot if any" (one).
    static func matchedHost(_ host: String) -> String {
        host.hasSuffix(".") ? String(host.dropLast()) : host
    }
}

/// An `SPKI-SHA256-BASE64` value read as Security reads it: `CreateCFDataFromBase64CFString` →
/// `SecBase64Decode_(…, kSecB64_F_STOP_ON_NOTHING)` (OSX/sec/Security/SecBase64.c). That decoder is lenient: it skips
/// every character outside `A–Z a–z 0–9 + / =` (URL-safe `-` and `_`, spaces, line breaks), decodes groups of four,
/// writes fewer bytes for a group ending in one or two `=` and stops after it, and drops an incomplete last group. No
/// length is checked: a value that decodes to other than 32 bytes is kept, and never equals a SHA-256 digest.
enum ATSIdentityText {
    /// The bytes Security takes from `text`; nil when none decode (`actual_data_length != 0` fails: the identity is
    /// skipped).
    static func bytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var group: [UInt8] = []
        // `numPads`: the `=` since the last letter of the alphabet (a letter after a `=` sets it back to 0).
        var pads = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                group.append(0)
                pads += 1
            } else if let value = alphabet(byte) {
                group.append(value)
                pads = 0
            } else {
                continue
            }
            guard group.count == 4 else { continue }
            bytes.append(group[0] << 2 | (group[1] & 0x30) >> 4)
            if pads != 2 {
                bytes.append((group[1] & 0xF) << 4 | (group[2] & 0x3C) >> 2)
                if pads != 1 { bytes.append((group[2] & 0x3) << 6 | group[3]) }
            }
            group.removeAll(keepingCapacity: true)
            if pads != 0 { break }
        }
        return bytes.isEmpty ? nil : bytes
    }

    private static func alphabet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }

    /// The pin for `text`, and, when Security reads it otherwise than as canonical base64 of 32 bytes, why: a pin that
    /// never matches, or one whose text is not what a reviewer would grep for.
    static func pin(_ text: String, source: PinSource) -> (pin: PublicKeyPin, note: String?)? {
        guard let bytes = bytes(text) else { return nil }
        let canonical = Data(bytes).base64EncodedString()
        let pin = PublicKeyPin(hash: bytes, source: source,
                               written: text == canonical ? nil : .init(library: .ats, text: text))
        if bytes.count != 32 {
            return (pin, "'\(text)' decodes to \(bytes.count) bytes, not a SHA-256 digest's 32: Security keeps it, and "
                + "it never matches")
        }
        return (pin, text == canonical ? nil : "'\(text)' is read by Security as \(canonical) (it skips what is not "
            + "base64 and stops at the first padding)")
    }
}
