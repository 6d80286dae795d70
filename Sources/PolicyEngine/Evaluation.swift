import Foundation
import OpenSSLWrapper

/// Which pin matched, and the certificate (index into `Evaluation.chain`) it matched.
public struct PinMatch: Sendable {
    public let source: PinSource
    public let certificateIndex: Int
}

/// The outcome of one evaluation: a verdict is a value, never a thrown error.
public struct Evaluation: Sendable {
    public enum Verdict: Sendable {
        case trusted(PinMatch?)
        case rejected(RejectionReason)
    }

    public let verdict: Verdict
    /// The presented certificates in the order sent, then those the anchors supplied to complete the built chain.
    public let chain: [X509Certificate]
    /// How many leading entries of `chain` were presented.
    public let presentedCount: Int
    /// The evaluation time.
    public let time: Date
    public let warnings: [String]

    public var isTrusted: Bool {
        if case .trusted = verdict { return true }
        return false
    }

    public var rejection: RejectionReason? {
        if case .rejected(let reason) = verdict { return reason }
        return nil
    }

    public var matchedPin: PinMatch? {
        if case .trusted(let match) = verdict { return match }
        return nil
    }

    /// The index in `chain` of the certificate a rejection names.
    public var rejectedCertificateIndex: Int? {
        guard let certificate = rejection?.verificationFailure?.certificate else { return nil }
        return chain.firstIndex(of: certificate)
    }

    /// The rejection's sentence, naming certificates by their index in `chain`.
    public var rejectionMessage: String? { rejection?.message(chain: chain, at: time) }

    /// The rejection's message line by line (see `RejectionReason.messageLines`).
    public var rejectionMessageLines: [String] { rejection?.messageLines(chain: chain, at: time) ?? [] }
}
