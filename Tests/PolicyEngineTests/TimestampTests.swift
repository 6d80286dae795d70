import Foundation
import PolicyEngine
import Testing

/// `--at` values: ISO 8601 UTC read field by field, only for instants certificates can express.
@Suite("Timestamps") struct TimestampTests {
    /// Seconds since 1970 written by hand (and checked with `date -u -d … +%s`).
    static let valid: [(String, Int64)] = [
        ("2026-01-31T12:00:00Z", 1_769_860_800),
        ("2026-01-31T12:00Z", 1_769_860_800),
        ("2026-01-31T14:00:00+02:00", 1_769_860_800),
        ("2026-01-31T07:30:00-04:30", 1_769_860_800),
        ("2026-01-31", 1_769_817_600),
        ("2024-02-29T00:00:00Z", 1_709_164_800),
        ("2000-02-29", 951_782_400),
        ("2026-01-31T12:00:00.999Z", 1_769_860_800),
        ("@0", 0),
        ("@-1", -1),
        ("9999-12-31T23:59:59Z", 253_402_300_799),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
        ("1969-12-31T23:59:59Z", -1),
    ]

    @Test("valid timestamps parse to the instant they name", arguments: valid)
    func validTimestampParses(_ text: String, _ seconds: Int64) throws {
        let date = try Timestamp.parse(text).get()
        #expect(date == Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static let invalid: [(String, String)] = [
        ("2026-02-30T00:00:00Z", "day 30 does not exist: 2026-02 has 28 days"),
        ("2025-02-29", "2025-02 has 28 days"),
        ("1900-02-29", "1900-02 has 28 days"),
        ("2026-04-31", "2026-04 has 30 days"),
        ("2026-13-01", "month 13 does not exist"),
        ("2026-00-10", "month 0 does not exist"),
        ("2026-01-31T24:00:00Z", "hour 24 does not exist"),
        ("2026-01-31T12:60:00Z", "minute 60 does not exist"),
        ("2026-12-31T23:59:60Z", "leap seconds are not accepted"),
        ("2026-01-31T12:00:00", "a time zone"),
        ("2026-01-31T12:00:00+0200", "a two-digit offset hour"),
        ("10000-01-01T00:00:00Z", "outside the years 0001 to 9999"),
        ("0000-06-01", "year 0000"),
        ("@9223372036854775807", "outside the years 0001 to 9999"),
        ("@253402300800", "outside the years 0001 to 9999"),
        ("@-62135596801", "outside the years 0001 to 9999"),
        ("@99999999999999999999", "whole seconds"),
        ("@1.5", "whole seconds"),
        ("yesterday", "a four-digit year"),
        ("26-01-31", "a four-digit year"),
        ("2026-1-31", "a two-digit month"),
        ("2026-01-31T12:00:00Zjunk", "unexpected text"),
        ("", "a four-digit year"),
    ]

    @Test("invalid timestamps are refused with the field at fault", arguments: invalid)
    func invalidTimestampIsRefused(_ text: String, _ mentions: String) {
        switch Timestamp.parse(text) {
        case .success(let date):
            Issue.record("'\(text)' parsed as \(date)")
        case .failure(let error):
            #expect(error.description.contains(mentions), "\(error.description)")
        }
    }

    @Test("formatting writes what parsing reads", arguments: [
        "2026-01-31T12:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1969-12-31T23:59:59Z",
        "2000-02-29T23:59:59Z", "1600-03-01T00:00:00Z",
    ])
    func formattingRoundTrips(_ text: String) throws {
        #expect(Timestamp.iso8601(try Timestamp.parse(text).get()) == text)
    }

    @Test func formattingAgreesWithFoundationInsideItsRange() {
        let style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        for seconds in stride(from: Int64(-2_000_000_000), to: 4_000_000_000, by: 86_399 * 37 + 13) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            #expect(Timestamp.iso8601(date) == date.formatted(style))
        }
    }
}
