import Synchronization

/// Certificates a long-running caller (`pinctl serve`) reads from handshakes again and again, remembered by their DER:
/// every probe of a target, and every target of a fleet that serves the same chain, presents the same certificates,
/// and reading one out of its `X509*` (names, fingerprints, dates, key) was 2.7% of a probe's CPU (issue #22).
///
/// A certificate is immutable and compared by its DER, so the one remembered stands for the one presented in every
/// way, down to its `X509*`'s contents. OpenSSL 3 guards what it caches in an `X509` while verifying, so one may be
/// verified by several probes at once, as a trust store's anchors are. The oldest goes once `capacity` are held, so
/// memory is bounded whatever a fleet or a hostile server presents.
// Sendable: its one field is a Mutex.
public final class CertificateMemo: Sendable {
    private let memory: Mutex<BoundedMemory<[UInt8], X509Certificate>>

    public init(capacity: Int) {
        memory = Mutex(BoundedMemory(capacity: capacity))
    }

    /// How many certificates were answered from memory, for tests and the note on what it saved.
    package var hits: Int { memory.withLock { $0.hits } }

    /// The certificate whose DER is `der`: the one remembered, else the one `wrap` makes (then remembered).
    func certificate<Failure: Error>(der: [UInt8], wrap: () throws(Failure) -> X509Certificate) throws(Failure)
        -> X509Certificate
    {
        if let remembered = memory.withLock({ $0.value(for: der) }) { return remembered }
        let certificate = try wrap()
        memory.withLock { $0.remember(certificate, for: der) }
        return certificate
    }
}
