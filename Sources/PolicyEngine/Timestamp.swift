import CertificateTime
import FoundationEssentials

/// ISO 8601 UTC timestamps, the one date format pinctl reads and prints.
///
/// Written out by hand rather than with Foundation's ISO 8601 style: that style rolls 2026-02-30 over to March 2
/// and accepts years no certificate can hold. Here every field is checked, and only instants `ValidationTime`
/// supports (years 0001 to 9999) are accepted.
public enum Timestamp {
    /// Why a text is not a timestamp pinctl accepts.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The forms accepted, for messages.
    public static let accepted = "2026-01-31T12:00:00Z, 2026-01-31, 2026-01-31T14:00:00+02:00 or @EPOCH"

    /// `2026-01-31T12:00:00Z`.
    public static func iso8601(_ date: Date) -> String {
        let (days, second) = floorDivision(Int64(date.timeIntervalSince1970.rounded(.down)), 86_400)
        return dayText(days) + "T\(padded(second / 3600, 2)):\(padded(second % 3600 / 60, 2)):"
            + "\(padded(second % 60, 2))Z"
    }

    /// `2026-01-31`: the day of `date` in UTC. A year past 9999 (a pin-set expiration may hold one) is written whole.
    public static func day(_ date: Date) -> String {
        dayText(floorDivision(Int64(date.timeIntervalSince1970.rounded(.down)), 86_400).0)
    }

    private static func dayText(_ days: Int64) -> String {
        let (year, month, day) = civil(fromDays: days)
        let yearText = year < 0 ? "-" + padded(-year, 4) : padded(year, 4)
        return "\(yearText)-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// Parses `2026-01-31T12:00:00Z`, `2026-01-31T12:00Z`, `2026-01-31T14:00:00+02:00`, `2026-01-31` or `@EPOCH`.
    public static func parse(_ text: String) -> Result<Date, ParseError> {
        let seconds: Int64
        if text.hasPrefix("@") {
            guard let value = Int64(text.dropFirst()) else {
                return .failure(ParseError(description: "@ must be followed by whole seconds since 1970"))
            }
            seconds = value
        } else {
            switch Fields.parse(Array(text.utf8)) {
            case .success(let value): seconds = value
            case .failure(let error): return .failure(error)
            }
        }
        guard (ValidationTime.earliestSeconds...ValidationTime.latestSeconds).contains(seconds) else {
            return .failure(ParseError(description: "outside the years 0001 to 9999 that certificates can express"))
        }
        return .success(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// 00:00:00 UTC at the start of a proleptic Gregorian date.
    static func startOfDay(year: Int64, month: Int64, day: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(days(year: year, month: month, day: day) * 86_400))
    }

    /// The inverse of `days(year:month:day:)`.
    static func civil(fromDays value: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = value + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// The fields of `YYYY-MM-DD[THH:MM[:SS[.fraction]](Z|±HH:MM)]`, each checked.
private struct Fields {
    var bytes: [UInt8]
    var position = 0

    static func parse(_ bytes: [UInt8]) -> Result<Int64, Timestamp.ParseError> {
        var fields = Fields(bytes: bytes)
        do {
            return .success(try fields.seconds())
        } catch {
            return .failure(error)
        }
    }

    private mutating func seconds() throws(Timestamp.ParseError) -> Int64 {
        var yearDigits = 0
        while position + yearDigits < bytes.count, isDigit(bytes[position + yearDigits]) { yearDigits += 1 }
        guard yearDigits <= 4 else { throw fail("outside the years 0001 to 9999 that certificates can express") }
        let year = try number(digits: 4, "a four-digit year")
        try expect("-", "'-' after the year")
        let month = try number(digits: 2, "a two-digit month")
        guard (1...12).contains(month) else { throw fail("month \(month) does not exist") }
        try expect("-", "'-' after the month")
        let day = try number(digits: 2, "a two-digit day")
        let length = Timestamp.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw fail("day \(day) does not exist: \(year)-\(month < 10 ? "0" : "")\(month) has \(length) days")
        }
        guard year >= 1 else { throw fail("year 0000 is before the years 0001 to 9999 that certificates can express") }
        let date = Timestamp.days(year: year, month: month, day: day) * 86_400
        if position == bytes.count { return date }
        try expect("T", "'T' between the date and the time")
        let hour = try number(digits: 2, "a two-digit hour")
        try expect(":", "':' after the hour")
        let minute = try number(digits: 2, "two-digit minutes")
        var second: Int64 = 0
        if peek(":") {
            position += 1
            second = try number(digits: 2, "two-digit seconds")
            if peek(".") || peek(",") {
                position += 1
                let start = position
                while position < bytes.count, isDigit(bytes[position]) { position += 1 }
                guard position > start else { throw fail("digits after the decimal point") }
            }
        }
        guard hour <= 23 else { throw fail("hour \(hour) does not exist") }
        guard minute <= 59 else { throw fail("minute \(minute) does not exist") }
        guard second <= 59 else { throw fail("second \(second) does not exist (leap seconds are not accepted)") }
        let offset = try zone()
        guard position == bytes.count else { throw fail("unexpected text after the time") }
        return date + hour * 3600 + minute * 60 + second - offset
    }

    /// `Z`, or `±HH:MM` as seconds east of UTC.
    private mutating func zone() throws(Timestamp.ParseError) -> Int64 {
        guard position < bytes.count else { throw fail("a time zone: Z for UTC, or an offset such as +02:00") }
        let sign = bytes[position]
        position += 1
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return 0 }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else {
            throw fail("a time zone: Z for UTC, or an offset such as +02:00")
        }
        let hours = try number(digits: 2, "a two-digit offset hour")
        try expect(":", "':' in the offset")
        let minutes = try number(digits: 2, "two-digit offset minutes")
        guard hours <= 23, minutes <= 59 else { throw fail("offset out of range") }
        let offset = hours * 3600 + minutes * 60
        return sign == UInt8(ascii: "+") ? offset : -offset
    }

    private mutating func number(digits: Int, _ what: String) throws(Timestamp.ParseError) -> Int64 {
        guard position + digits <= bytes.count, bytes[position..<position + digits].allSatisfy(isDigit) else {
            throw fail("expected \(what)")
        }
        var value: Int64 = 0
        for byte in bytes[position..<position + digits] { value = value * 10 + Int64(byte - UInt8(ascii: "0")) }
        position += digits
        if position < bytes.count, isDigit(bytes[position]) { throw fail("expected \(what), found more digits") }
        return value
    }

    private mutating func expect(_ character: Character, _ what: String) throws(Timestamp.ParseError) {
        guard peek(character) else { throw fail("expected \(what)") }
        position += 1
    }

    private func peek(_ character: Character) -> Bool {
        position < bytes.count && bytes[position] == character.asciiValue!
    }

    private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private func fail(_ reason: String) -> Timestamp.ParseError { Timestamp.ParseError(description: reason) }
}
