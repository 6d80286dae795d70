import FileAccess
import Testing

/// File names are bytes: whatever the kernel hands over comes back byte for byte.
@Suite struct PathBytesTests {
    static let names: [[UInt8]] = [
        Array("plain.pem".utf8),
        Array("grüße.pem".utf8),
        [0x62, 0x61, 0x64, 0xFF, 0x2E, 0x70, 0x65, 0x6D],  // bad\xFF.pem
        [0xC3],  // a truncated two-byte sequence
        [0xC0, 0xAF],  // an overlong '/'
        [0xED, 0xA0, 0x80],  // an encoded surrogate
        [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
        [0xF4, 0x8F, 0xBE, 0x80],  // U+10FF80: valid UTF-8 inside the escape range itself
        Array(0...255).map(UInt8.init).filter { $0 != 0 },
    ]

    @Test("every byte sequence round-trips", arguments: names)
    func roundTrip(_ bytes: [UInt8]) {
        #expect(PathBytes.bytes(PathBytes.string(bytes)) == bytes)
    }

    @Test func validUTF8IsKeptAsText() {
        #expect(PathBytes.string(Array("grüße.pem".utf8)) == "grüße.pem")
    }

    @Test func aByteThatIsNotUTF8IsOneEscapedScalar() {
        let text = PathBytes.string([0x61, 0xFF])
        #expect(text.unicodeScalars.count == 2)
        #expect(text.unicodeScalars.last.flatMap(PathBytes.escapedByte) == 0xFF)
    }
}
