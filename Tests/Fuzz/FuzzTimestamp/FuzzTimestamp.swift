import CertificateTime
import Foundation
import FuzzSupport
import PolicyEngine

/// Any bytes, as an `--at` value.
enum TimestampFuzz {
    static func check(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let date: Date
        switch Timestamp.parse(text) {
        case .success(let value):
            date = value
        case .failure(let error):
            Fuzz.require(!error.description.isEmpty, "a rejection without a reason")
            return
        }
        Fuzz.require(ValidationTime.isSupported(date), "\(text.debugDescription) is outside the supported years")
        let seconds = date.timeIntervalSince1970
        Fuzz.require(seconds == seconds.rounded(.down), "\(text.debugDescription) is not whole seconds")
        // Printed the way pinctl prints times, and as @EPOCH, the instant reads back the same.
        let printed = Timestamp.iso8601(date)
        requireSameInstant(date, reading: printed, from: text)
        requireSameInstant(date, reading: "@\(Int64(seconds))", from: text)
        // The day alone reads as that day's midnight.
        switch Timestamp.parse(Timestamp.day(date)) {
        case .success(let midnight):
            let elapsed = date.timeIntervalSince(midnight)
            Fuzz.require((0..<86_400).contains(elapsed), "\(printed) is \(elapsed) s after its day began")
        case .failure(let error):
            Fuzz.require(false, "the day of \(printed) does not read: \(error)")
        }
    }

    private static func requireSameInstant(_ date: Date, reading text: String, from original: String) {
        switch Timestamp.parse(text) {
        case .success(let again):
            Fuzz.require(again == date, "\(original.debugDescription) -> \(text) -> \(Timestamp.iso8601(again))")
        case .failure(let error):
            Fuzz.require(false, "\(original.debugDescription) -> \(text) is rejected: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(TimestampFuzz.check) }
}
