/// Hexadecimal, two digits a byte, written by hand: `String(format:)` would pull ICU's data into the binary.
public enum Hex {
    @usableFromInline static let upperDigits = Array("0123456789ABCDEF".utf8)
    @usableFromInline static let lowerDigits = Array("0123456789abcdef".utf8)

    // @inlinable: called with arrays and slices from other modules, where an unspecialized generic loop over a
    // root's fingerprints showed in profiles (#33).
    @inlinable
    public static func upper(_ bytes: some Sequence<UInt8>) -> String { text(bytes, upperDigits) }

    /// Lower case, as snapshot root ids are written.
    @inlinable
    public static func lower(_ bytes: some Sequence<UInt8>) -> String { text(bytes, lowerDigits) }

    @inlinable
    static func text(_ bytes: some Sequence<UInt8>, _ digits: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` in upper-case hexadecimal, zero-padded to at least `digits` digits (`1B`, `001B`): how escapes and
    /// `U+` names write a character.
    public static func number(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
