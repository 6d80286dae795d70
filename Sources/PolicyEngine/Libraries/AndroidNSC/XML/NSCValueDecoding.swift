import FoundationEssentials

/// The decoders an Android device applies to the values of a network security config, written again here so pinctl
/// accepts and refuses exactly what a device does: aapt's booleans, `String.trim()`, `android.util.Base64` and
/// `SimpleDateFormat("yyyy-MM-dd")`. Each is lenient in ways a strict reader would not be, and an app relies on them
/// without knowing.
enum NSCValueDecoding {
    /// `String.trim()`: drops every leading and trailing character at or below U+0020 (controls included), nothing
    /// else (a no-break space stays, and then the domain never matches).
    static func javaTrim(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }),
              let last = scalars.lastIndex(where: { $0.value > 0x20 }) else { return "" }
        return String(scalars[first...last])
    }

    /// An attribute read with `getAttributeBooleanValue(…, fallback)`. aapt compiles a value without a namespace
    /// against its default attribute (XmlReferenceLinker: "If the attribute has no namespace, interpret values as if
    /// they were assigned to the default Attribute"), trying a color, then `ParseBool` ("true", "TRUE", "True" and
    /// the three spellings of false, blanks trimmed), then `ResTable::stringToInt`; the platform's reader then takes
    /// any integer type as `data != 0` and anything else (a string, a float) as the fallback.
    static func aaptBoolean(_ value: String?, fallback: Bool) -> Bool {
        guard let value else { return fallback }
        let trimmed = value.trimming { " \t\n\r\u{0B}\u{0C}".unicodeScalars.contains($0) }
        if let color = aaptColor(trimmed) { return color != 0 }
        switch trimmed {
        case "true", "TRUE", "True": return true
        case "false", "FALSE", "False": return false
        default: break
        }
        if let integer = aaptInteger(trimmed) { return integer != 0 }
        return fallback
    }

    /// `TryParseColor`: `#RGB`, `#ARGB`, `#RRGGBB`, `#AARRGGBB`; the forms without alpha are opaque (never 0).
    private static func aaptColor(_ text: String) -> UInt32? {
        let digits = Array(text.utf8.dropFirst())
        guard text.hasPrefix("#"), [3, 4, 6, 8].contains(digits.count) else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard let nibble = hexValue(digit) else { return nil }
            value = value << 4 | UInt32(nibble)
        }
        return digits.count == 3 || digits.count == 6 ? 0xFF00_0000 | value : value
    }

    /// `ResTable::stringToInt`: an optional '-' and decimal digits within Int32, or `0x` and hex digits within
    /// UInt32.
    private static func aaptInteger(_ text: String) -> Int64? {
        var bytes = Substring(text).utf8
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        guard !bytes.isEmpty else { return nil }
        if bytes.starts(with: "0x".utf8) {
            let digits = bytes.dropFirst(2)
            guard !negative, !digits.isEmpty, digits.count <= 8 else { return nil }
            var value: Int64 = 0
            for digit in digits {
                guard let nibble = hexValue(digit) else { return nil }
                value = value << 4 | Int64(nibble)
            }
            return value
        }
        guard bytes.count <= 10, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let magnitude = bytes.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        let value = negative ? -magnitude : magnitude
        return (Int64(Int32.min)...Int64(Int32.max)).contains(value) ? value : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        Character(Unicode.Scalar(byte)).hexDigitValue.map(UInt8.init)
    }

    /// `android.util.Base64.decode(text, DEFAULT)`, its state machine step by step: every byte outside
    /// `A-Z a-z 0-9 + / =` is skipped (blanks, line breaks, `-`, `_`, any non-ASCII byte); padding is optional, but
    /// when present it must be exact: "=" only after two or three characters of a quantum, "==" only after two, and
    /// nothing but skipped bytes after it. A quantum of one character is an error.
    static func androidBase64(_ text: String) -> [UInt8]? {
        enum State { case data(Int), expectingSecondPad, done }
        var state = State.data(0)
        var value: UInt32 = 0
        var output: [UInt8] = []
        for byte in text.utf8 {
            let digit = base64Digit(byte)
            switch (state, digit) {
            case (_, .skip):
                continue
            case (.data(let count), .value(let sextet)):
                value = value << 6 | UInt32(sextet)
                if count == 3 {
                    output += [UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
                               UInt8(truncatingIfNeeded: value)]
                    value = 0
                    state = .data(0)
                } else {
                    state = .data(count + 1)
                }
            case (.data(2), .pad):
                output.append(UInt8(truncatingIfNeeded: value >> 4))
                state = .expectingSecondPad
            case (.data(3), .pad):
                output += [UInt8(truncatingIfNeeded: value >> 10), UInt8(truncatingIfNeeded: value >> 2)]
                state = .done
            case (.expectingSecondPad, .pad):
                state = .done
            default:
                return nil  // '=' too early, data after the padding, one '=' where two were due
            }
        }
        switch state {
        case .data(0), .done: return output
        case .data(2): return output + [UInt8(truncatingIfNeeded: value >> 4)]
        case .data(3): return output + [UInt8(truncatingIfNeeded: value >> 10), UInt8(truncatingIfNeeded: value >> 2)]
        default: return nil  // one character of a quantum, or "=" where "==" was due
        }
    }

    private enum Base64Digit { case value(UInt8), pad, skip }

    private static func base64Digit(_ byte: UInt8) -> Base64Digit {
        switch byte {
        case 0x41...0x5A: .value(byte - 0x41)
        case 0x61...0x7A: .value(byte - 0x61 + 26)
        case 0x30...0x39: .value(byte - 0x30 + 52)
        case UInt8(ascii: "+"): .value(62)
        case UInt8(ascii: "/"): .value(63)
        case UInt8(ascii: "="): .pad
        default: .skip
        }
    }

    /// The day `new SimpleDateFormat("yyyy-MM-dd")` with `setLenient(false)` reads from `text`: blanks and tabs may
    /// precede each field ("If there are any spaces here, skip over them"); a field is as many digits as follow (so
    /// `2026-1-5` and `2026-001-05` are read); the '-' between fields must be there; whatever follows the day is
    /// ignored (`parse(String)` stops where the pattern ends); the date must exist. Nil where Android throws
    /// "Invalid expiration date in pin-set".
    static func expirationDay(_ text: String) -> (year: Int64, month: Int64, day: Int64)? {
        var bytes = Substring(text).utf8[...]
        func field() -> Int64? {
            bytes = bytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            let digits = bytes.prefix { (0x30...0x39).contains($0) }
            bytes = bytes.dropFirst(digits.count)
            let significant = digits.drop { $0 == 0x30 }
            // Java's calendar ends in the year 292278994: a longer field can only be refused.
            guard !digits.isEmpty, significant.count <= 9 else { return nil }
            return significant.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        }
        func dash() -> Bool {
            guard bytes.first == UInt8(ascii: "-") else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = field(), dash(), let month = field(), dash(), let day = field(),
              (1...292_278_994).contains(year), (1...12).contains(month),
              (1...Timestamp.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        return (year, month, day)
    }

    /// 00:00 UTC at the start of the expiration day. Android reads it at the device's midnight (SimpleDateFormat
    /// uses the default time zone), which pinctl cannot know; UTC is its stated convention. (Before 1582 Java's
    /// calendar is Julian; such a date has long passed either way.)
    static func expirationDate(_ text: String) -> Date? {
        expirationDay(text).map(Timestamp.startOfDay)
    }
}
