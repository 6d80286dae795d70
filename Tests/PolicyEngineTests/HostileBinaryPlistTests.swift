import PolicyEngine
import Testing

/// A binary property list written byte by byte: objects by index, as the format refers to them, with references
/// of `referenceSize` bytes (the objects' bytes hold them) and two-byte offsets.
private func binaryPlist(_ objects: [[UInt8]], referenceSize: UInt8 = 1) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [UInt8] = []
    for object in objects {
        offsets += [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        bytes += object
    }
    let table = bytes.count
    bytes += offsets
    // Trailer: 6 unused bytes, the offset size, the reference size, object count, top object (0), table offset.
    bytes += [0, 0, 0, 0, 0, 0, 2, referenceSize]
    for value in [objects.count, 0, table] {
        bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
    return bytes
}

/// Files whose objects form what no property list is are refused before FoundationEssentials decodes them, at once
/// (the decoder would recurse forever, or copy shared objects a billion times); the expected words written by hand.
@Suite struct HostileBinaryPlistTests {
    func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try TrustKitConfigurationReader.read(bytes, path: "Info.plist", hosts: [])
            return nil
        } catch {
            return error.message
        }
    }

    @Test func anArrayThatContainsItselfIsRefused() {
        #expect(refusal(binaryPlist([[0xA1, 0]])) == "a binary property list whose object 0 contains itself, which no "
            + "property list does")
    }

    /// Arrays each holding the next, an empty one last: 256 levels are read (and refused for holding no
    /// configuration), 257 are refused for their depth.
    @Test func nestingPastTwoHundredFiftySixIsRefused() {
        func nested(_ levels: Int) -> [UInt8] {
            binaryPlist((0..<levels - 1).map { [0xA1, UInt8(($0 + 1) >> 8), UInt8(($0 + 1) & 0xFF)] } + [[0xA0]],
                        referenceSize: 2)
        }
        #expect(refusal(nested(256)) == "holds an array, not a dictionary: an Info.plist, or TrustKit's "
            + "TSKConfiguration dictionary alone")
        #expect(refusal(nested(257)) == "a binary property list nested more than 256 deep")
    }

    /// Ten levels of arrays of 15 references to the level below: 15¹⁰ values if decoded, 11 objects as written.
    @Test func sharedObjectsThatExpandPastAHundredThousandValuesAreRefused() {
        let levels = (0..<10).map { level in [0xAF, 0x10, 15] + Array(repeating: UInt8(level + 1), count: 15) }
        #expect(refusal(binaryPlist(levels + [[0x08]])) == "a binary property list whose shared objects make it more "
            + "than 100000 values")
    }

    @Test func aUIDAndANonStringKeyAreRefused() {
        #expect(refusal(binaryPlist([[0x80, 7]])) == "a binary property list holding a UID (object 0), which "
            + "NSKeyedArchiver writes and no property list holds")
        // A dictionary whose one key is the integer 5.
        #expect(refusal(binaryPlist([[0xD1, 1, 2], [0x10, 5], [0x09]])) == "a binary property list whose dictionary "
            + "(object 0) has a key that is not a string (object 1)")
    }

    /// Forty arrays deep, a string that is not UTF-16 at the bottom: refused as damaged at once (trying each
    /// collection again as a dictionary would cost 2⁴⁰ decodings).
    @Test func aBadValueDeepInsideIsRefusedAtOnce() {
        let nested = (0..<40).map { [0xA1, UInt8($0 + 1)] } + [[0x61, 0xD8, 0x00]]
        let clock = ContinuousClock()
        var message: String?
        let elapsed = clock.measure { message = refusal(binaryPlist(nested)) }
        #expect(message == "a binary property list that cannot be read (cut short or damaged)")
        #expect(elapsed < .seconds(5))
    }
}
