import FoundationEssentials
import OpenSSLWrapper

/// The pins a policy applies to one host, how each is compared, and when they stop applying: what `lint` attributes
/// and forecasts.
public struct AppliedPins: Sendable {
    /// How a pin is compared with a certificate.
    public enum Comparison: String, Sendable {
        /// The whole certificate, byte for byte (certificate pinning).
        case certificate
        /// The SubjectPublicKeyInfo's hash (key pinning).
        case key
    }

    public struct Entry: Sendable {
        public let pin: Pin
        public let comparison: Comparison

        public init(_ pin: Pin, _ comparison: Comparison) {
            self.pin = pin
            self.comparison = comparison
        }

        /// Whether the pin matches `certificate`.
        public func matches(_ certificate: X509Certificate) -> Bool {
            switch (pin, comparison) {
            case (.certificate(let pinned), .certificate): pinned.certificate == certificate
            case (.certificate(let pinned), .key): pinned.keyPin.matches(certificate)
            case (.key(let key), _): key.matches(certificate)
            }
        }
    }

    public var entries: [Entry]
    /// From this instant the pins no longer apply and pinning fails open (TrustKit's expirationDate, Android's
    /// pin-set expiration).
    public var expiration: Date?
    /// A mismatch is only reported, not blocked (TrustKit's enforcePinning = NO).
    public var reportOnly: Bool
    /// Why no pin applies to the host, when none does.
    public var notPinnedBecause: String?

    public init(_ entries: [Entry], expiration: Date? = nil, reportOnly: Bool = false, notPinnedBecause: String? = nil) {
        self.entries = entries
        self.expiration = expiration
        self.reportOnly = reportOnly
        self.notPinnedBecause = entries.isEmpty ? (notPinnedBecause ?? "the policy pins nothing for this host") : nil
    }

    public static func none(_ because: String) -> AppliedPins { AppliedPins([], notPinnedBecause: because) }
}

