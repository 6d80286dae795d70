import CertificateTime
import FoundationEssentials
import Synchronization

/// Chain verifications remembered by a long-running caller (`pinctl serve`), which meets the same chain again and
/// again: from every probe of a target, and from every target of a fleet that serves it (issue #22).
///
/// A verification is reused only where running it again must give the same result:
/// - the same leaf, candidate intermediates (in order), anchors and settings, each certificate compared by its
///   SHA-256 fingerprint;
/// - anchors that are all known (CA files, pinned certificates, a platform's roots): a hashed directory or a bundle
///   read lazily may change under pinctl, and its certificates are not known to compare;
/// - the same path rules (`PathRule.memoKey`; a platform version's, DESIGN §12: whether Apple's server policy
///   applies, whether an anchor's dates count, the platform's store and the roots its user added, all listed).
///   Versions of one `VersionClass` share one verification within a probe; this shares it across probes. Never rules
///   without a key. Certificate Transparency's key holds the log list and the SCTs the server sent;
/// - a time at which every certificate involved (the leaf, the candidates, every anchor the search met) is valid or
///   invalid exactly as at the time remembered: no notBefore or notAfter lies between the two, with a second's
///   margin so that OpenSSL's whole seconds and pinctl's exact ones read alike. The very same time for rules that
///   say so (`PathRule.memoRequiresSameTime`: Apple's log states and SCT timestamps change a verdict at other times),
///   as a run at a time given (`--at`) judges every target;
/// - a search for other paths that ran to its end, not one the clock cut short (`PathBacktracking.deadline`).
/// The oldest entry goes once `capacity` are held, so memory is bounded whatever a fleet serves.
// Sendable: its one field is a Mutex.
public final class VerificationMemo: Sendable {
    struct Key: Hashable {
        let leaf: [UInt8]
        let untrusted: [[UInt8]]
        let anchors: TrustStore.Contents
        let checks: VerificationOptions.Checks
        /// The path rule's `memoKey`.
        let rules: String?
    }

    private struct Entry {
        let time: Date
        let certificates: [X509Certificate]
        let verification: ChainVerification
    }

    private let memory: Mutex<BoundedMemory<Key, Entry>>

    public init(capacity: Int) {
        memory = Mutex(BoundedMemory(capacity: capacity))
    }

    /// How many verifications were answered from memory, for tests and the note on what it saved.
    package var hits: Int { memory.withLock { $0.hits } }

    /// The verification of `leaf` against `store`: remembered when it may be reused, else run by `verify` (and then
    /// remembered when it may be reused later).
    func verification(
        leaf: X509Certificate, untrusted: [X509Certificate], store: TrustStore, options: VerificationOptions,
        verify: () -> ChainVerification
    ) -> ChainVerification {
        let rules = options.pathRule.map(\.memoKey)
        guard rules != .some(nil), let anchors = store.contents, ValidationTime.isSupported(options.time)
        else { return verify() }
        let key = Key(leaf: leaf.sha256Fingerprint, untrusted: untrusted.map(\.sha256Fingerprint), anchors: anchors,
                      checks: options.checks, rules: rules ?? nil)
        let sameTime = options.pathRule?.memoRequiresSameTime ?? false
        let remembered = memory.withLock { memory in
            memory.value(for: key) { entry in
                sameTime ? entry.time == options.time
                    : Self.validityReadsAlike(entry.certificates, at: entry.time, and: options.time)
            }
        }
        if let remembered { return remembered.verification }
        let verification = verify()
        guard !verification.searchCutShort else { return verification }
        let entry = Entry(time: options.time, certificates: [leaf] + untrusted + store.metAnchors,
                          verification: verification)
        memory.withLock { $0.remember(entry, for: key) }
        return verification
    }

    /// Whether no certificate's notBefore or notAfter lies between `first` and `second` (within a second of them).
    static func validityReadsAlike(_ certificates: [X509Certificate], at first: Date, and second: Date) -> Bool {
        let low = min(first, second).timeIntervalSince1970.rounded(.down) - 1
        let high = max(first, second).timeIntervalSince1970.rounded(.up) + 1
        return !certificates.contains { certificate in
            [certificate.notBefore, certificate.notAfter].contains { boundary in
                let seconds = boundary.timeIntervalSince1970
                return seconds >= low && seconds <= high
            }
        }
    }
}
