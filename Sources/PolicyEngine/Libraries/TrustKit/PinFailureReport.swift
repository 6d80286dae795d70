import FoundationEssentials
import JSONTree
import OpenSSLWrapper

/// A pin-failure report as TrustKit sends it to its `reportUris`: TSKPinFailureReport's `json` on iOS
/// (TrustKit/Reporting/TSKPinFailureReport.m) or PinningFailureReport's `toJson` on Android
/// (trustkit/src/main/java/com/datatheorem/android/trustkit/reporting/PinningFailureReport.java). The same keys on
/// both but a few; what a device sends is data, each value checked before it is used.
public struct PinFailureReport: Sendable {
    /// Why a body is not a report TrustKit writes, naming the key.
    public struct Malformed: Error, Sendable {
        public let message: String
    }

    public enum Platform: String, Sendable {
        case ios = "IOS", tvos = "TVOS", watchos = "WATCHOS", macos = "MACOS", android = "ANDROID"
    }

    public let bundleID: String
    public let appVersion: String
    public let platform: Platform
    /// iOS and macOS: `operatingSystemVersion` as "17.2.0"; Android sends none.
    public let platformVersion: String?
    public let hostname: String
    /// When the device saw the failure. iOS writes UTC; TrustKit-Android formats the device's local time with
    /// android.text.format.DateFormat, which prints the pattern's `Z` as a letter: its offset is unknown.
    public let time: Date
    /// The chain the device judged, leaf first: SecTrust's on iOS; Android sends the chain as served beside it.
    public let chain: [X509Certificate]
    /// TSKTrustEvaluationResult (iOS) or PinningValidationResult's ordinal (Android): the same numbers.
    public let validationResult: Int

    /// TSKTrustEvaluationResult's names (TrustKit/public/TSKTrustDecision.h), PinningValidationResult's in the same
    /// order; 0 (success) is never reported.
    public static let validationResults = [
        1: "no-matching-pin", 2: "invalid-certificate-chain", 3: "invalid-parameters",
        4: "user-defined-trust-anchor", 5: "could-not-generate-spki-hash",
    ]

    public var validationResultName: String { Self.validationResults[validationResult] ?? String(validationResult) }

    public static func parse(_ body: [UInt8]) throws(Malformed) -> PinFailureReport {
        let root: JSONNode
        do {
            root = try JSONTree.parse(body)
        } catch {
            throw Malformed(message: "not JSON" + (error.line.map { " (line \($0))" } ?? "") + ": \(error.message)")
        }
        guard case .object(let members) = root else { throw Malformed(message: "not a JSON object") }
        func string(_ key: String, bound: Int = 253) throws(Malformed) -> String {
            guard case .string(let value)? = members[key] else { throw Malformed(message: "\(key): expected a string") }
            guard value.utf8.count <= bound else {
                throw Malformed(message: "\(key): \(value.utf8.count) bytes; at most \(bound) are read")
            }
            return value
        }
        func strings(_ key: String) throws(Malformed) -> [String] {
            guard case .array(let values)? = members[key] else {
                throw Malformed(message: "\(key): expected an array of strings")
            }
            var strings: [String] = []
            for value in values {
                guard case .string(let text) = value else {
                    throw Malformed(message: "\(key): expected an array of strings")
                }
                strings.append(text)
            }
            return strings
        }

        let platformName = try string("app-platform")
        guard let platform = Platform(rawValue: platformName) else {
            throw Malformed(message: "app-platform: '\(platformName)' is none of TrustKit's (IOS, TVOS, WATCHOS, "
                + "MACOS, ANDROID)")
        }
        guard case .integer(let result)? = members["validation-result"], result != 0,
              validationResults[Int(result)] != nil
        else {
            throw Malformed(message: "validation-result: expected a failure, 1 to 5 (TSKTrustEvaluationResult); 0 is "
                + "a success, which TrustKit never reports")
        }
        let timeText = try string("date-time")
        guard case .success(let time) = Timestamp.parse(timeText) else {
            throw Malformed(message: "date-time: '\(timeText)' is not yyyy-MM-ddTHH:mm:ssZ")
        }
        // Android sends the chain as the server presented it beside the validated one: pinctl judges what was
        // presented, as it judges a probe's.
        let chainKey = members["served-certificate-chain"] == nil
            ? "validated-certificate-chain" : "served-certificate-chain"
        let chainText = try strings(chainKey)
        guard !chainText.isEmpty, chainText.count <= ChainBounds.maximumCertificates else {
            throw Malformed(message: "\(chainKey): \(chainText.count) certificates; 1 to "
                + "\(ChainBounds.maximumCertificates) are read")
        }
        var chain: [X509Certificate] = []
        for (index, pem) in chainText.enumerated() {
            let parsed: [X509Certificate]
            do {
                parsed = try CertificateParser.certificates(from: Array(pem.utf8))
            } catch {
                throw Malformed(message: "\(chainKey)[\(index)]: \(error.reason)")
            }
            guard parsed.count == 1 else {
                throw Malformed(message: "\(chainKey)[\(index)]: \(parsed.count) certificates; TrustKit sends one each")
            }
            chain += parsed
        }
        // Checked as TrustKit writes them, not kept: the policy file, not the device, says what is pinned where.
        _ = try string("noted-hostname")
        _ = try strings("known-pins")
        return PinFailureReport(
            bundleID: try string("app-bundle-id"), appVersion: try string("app-version", bound: 64),
            platform: platform,
            platformVersion: members["app-platform-version"] == nil
                ? nil : try string("app-platform-version", bound: 64),
            hostname: try string("hostname"), time: time, chain: chain, validationResult: Int(result))
    }
}
