import FoundationEssentials

/// The values of a `TSKConfiguration` as TrustKit reads them: Objective-C messages sent to whatever the plist or
/// JSON holds. A message the object does not understand (`boolValue` to an array) raises at launch, so pinctl refuses
/// those types; what the message tolerates (`"YES"` for a boolean, `2026-1-5` for a date) it accepts as TrustKit does.
enum TrustKitValueDecoding {
    /// `[value boolValue]`: a number is true when non-zero; a string as `-[NSString boolValue]` reads it (below).
    /// Nil for any other type, which does not respond to it.
    static func bool(_ value: PropertyListValue) -> Bool? {
        switch value {
        case .bool(let flag): flag
        case .integer(let number): number != 0
        case .real(let number): number != 0
        case .string(let text): boolValue(text)
        default: nil
        }
    }

    /// `-[NSString boolValue]` as swift-corelibs-foundation writes it (Apple documents the same rule): a `Scanner`,
    /// which skips blanks and line breaks before each step, reads blanks, an optional `+` or `-`, any zeros, and the
    /// answer is whether one of `tTyY1-9` follows.
    static func boolValue(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        func skipBlanks() { scalars = scalars.drop(while: \.isBlankOrNewline) }
        skipBlanks()
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        skipBlanks()
        scalars = scalars.drop { $0 == "0" }
        skipBlanks()
        guard let next = scalars.first else { return false }
        return "tTyY123456789".unicodeScalars.contains(next)
    }

    /// The day that parse_configuration.m's `NSDateFormatter` (`yyyy-MM-dd`, UTC, ICU's lenient parsing) reads from
    /// `text`, as far as its leniency is known: blanks and tabs before the year, a field as long as its digits run
    /// (`2026-1-5`, `02026-01-05`), any of `-` `/` `.` or a blank between fields, trailing blanks; the date must exist.
    /// (Observed with ICU on this platform, the library Apple's formatter is built on.) Nil where the formatter gives
    /// nil: TrustKit then drops the key, and the pins never expire.
    static func expirationDay(_ text: String) -> (year: Int64, month: Int64, day: Int64)? {
        var bytes = Substring(text).utf8[...]
        bytes = bytes.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        func field() -> Int64? {
            let digits = bytes.prefix { (0x30...0x39).contains($0) }
            bytes = bytes.dropFirst(digits.count)
            let significant = digits.drop { $0 == 0x30 }
            guard !digits.isEmpty, significant.count <= 9 else { return nil }
            return significant.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
        }
        func separator() -> Bool {
            guard let byte = bytes.first, "-/. ".utf8.contains(byte) else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = field(), separator(), let month = field(), separator(), let day = field(),
              bytes.allSatisfy({ $0 == UInt8(ascii: " ") }),
              // Years past 9999 are beyond what pinctl's times express; such pins outlive any app anyway.
              (1...9999).contains(year), (1...12).contains(month),
              (1...Timestamp.daysInMonth(year: year, month: month)).contains(day) else { return nil }
        return (year, month, day)
    }

    /// 00:00 UTC at the start of the day `expirationDay` reads.
    static func expirationDate(_ text: String) -> Date? {
        expirationDay(text).map(Timestamp.startOfDay)
    }
}
