import FoundationEssentials
import Glibc

/// The instants a chain can be validated at: those both `time_t` and an ASN.1 time (years 0001 to 9999) can hold.
///
/// Every conversion of an evaluation time to OpenSSL goes through here, so no input can trap on the way
/// (`time_t(Double)` does, beyond Int64) or reach OpenSSL as a time no certificate can express.
public enum ValidationTime {
    /// 0001-01-01T00:00:00Z.
    public static let earliestSeconds: Int64 = -62_135_596_800
    /// 9999-12-31T23:59:59Z, the last second an ASN.1 GeneralizedTime can name.
    public static let latestSeconds: Int64 = 253_402_300_799

    /// Whether `date` lies in the supported range.
    public static func isSupported(_ date: Date) -> Bool { timeT(date) != nil }

    /// The whole seconds of `date` (rounded down), or nil outside the supported range or for a non-finite value.
    public static func timeT(_ date: Date) -> time_t? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, seconds >= Double(earliestSeconds), seconds <= Double(latestSeconds) else { return nil }
        return time_t(seconds)
    }
}
