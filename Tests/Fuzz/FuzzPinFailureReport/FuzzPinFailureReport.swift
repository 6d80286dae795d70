import FuzzSupport
import OpenSSLWrapper
import PolicyEngine

/// Any bytes, as the body of a TrustKit pin-failure report that `pinctl serve` takes from any device (`POST /report`).
enum PinFailureReportFuzz {
    /// The longest refusal: a key, a value pinctl quotes (at most 253 bytes) and a sentence; never the body.
    static let longestRefusal = 600

    static func check(_ bytes: [UInt8]) {
        let report: PinFailureReport
        do {
            report = try PinFailureReport.parse(bytes)
        } catch {
            Fuzz.require(!error.message.isEmpty, "a refusal that says nothing")
            Fuzz.require(error.message.utf8.count <= longestRefusal,
                         "a refusal of \(error.message.utf8.count) bytes: \(error.message)")
            return
        }
        Fuzz.require((1...ChainBounds.maximumCertificates).contains(report.chain.count),
                     "a chain of \(report.chain.count) certificates")
        CertificateInvariants.requireDERRereadable(report.chain)
        for (name, value, bound) in [("app-bundle-id", report.bundleID, 253), ("hostname", report.hostname, 253),
                                     ("app-version", report.appVersion, 64),
                                     ("app-platform-version", report.platformVersion ?? "", 64)] {
            Fuzz.require(value.utf8.count <= bound, "\(name) of \(value.utf8.count) bytes kept")
        }
        Fuzz.require(PinFailureReport.validationResults[report.validationResult] != nil,
                     "validation-result \(report.validationResult) kept")
        // The time reads back from the form pinctl writes it in (the fleet view, the logs).
        let written = Timestamp.iso8601(report.time)
        guard case .success(let again) = Timestamp.parse(written) else {
            Fuzz.require(false, "date-time written as \(written) does not read back")
            return
        }
        Fuzz.require(again == report.time, "date-time \(written) reads back as another instant")
    }
}

@main
enum Main {
    static func main() { Fuzz.main(PinFailureReportFuzz.check) }
}
