import ArgumentParser
import FoundationEssentials
import OpenSSLWrapper
import PolicyEngine

/// The anchors standing for the system store, and the evaluation time.
struct AnchorOptions: ParsableArguments {
    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "Trust anchors from this PEM/DER file instead of the system store. Repeatable.", valueName: "file"))
    var caFiles: [String] = []

    @Option(name: .customLong("ca-path"), help: ArgumentHelp(
        "Trust anchors from this hashed directory (openssl rehash) instead of the system store. Repeatable.",
        valueName: "dir"))
    var caPaths: [String] = []

    @Option(help: ArgumentHelp(
        "Evaluation time: ISO 8601 UTC (2026-01-31T12:00:00Z) or @EPOCH. Default: now.", valueName: "time"))
    var at: String?

    func validate() throws {
        if let at, case .failure(let error) = Timestamp.parse(at) {
            throw ValidationError("--at \(at): \(error.description) (accepted: \(Timestamp.accepted))")
        }
    }

    /// The evaluation time; `validate()` has already checked `--at`.
    var time: Date { at.flatMap { try? Timestamp.parse($0).get() } ?? Date() }

    /// The chain OpenSSL builds from `presented` to these anchors, checking no host name or usage (for `chain` and
    /// `extract`, which describe a chain rather than judge it).
    func build(_ presented: [X509Certificate], store: TrustStore, at time: Date) -> ChainVerification {
        ChainVerifier.verify(
            leaf: presented[0], untrusted: Array(presented.dropFirst()), store: store,
            options: VerificationOptions(time: time, domain: nil, checksServerIdentity: false))
    }

    /// The anchors that stand for the system store.
    /// `--ca-file`/`--ca-path` when given, else the anchors a policy file names (`fallback`), else the system store.
    func trustStore(fallback: (caFiles: [String]?, caPaths: [String]?) = (nil, nil)) throws(InputError) -> TrustStore {
        if !caFiles.isEmpty || !caPaths.isEmpty {
            do {
                return try TrustStore.caFiles(caFiles, directories: caPaths)
            } catch {
                throw InputError("--ca-file/--ca-path \(error.description)")
            }
        }
        guard fallback.caFiles != nil || fallback.caPaths != nil else { return TrustStore.system() }
        do {
            return try TrustStore.caFiles(fallback.caFiles ?? [], directories: fallback.caPaths ?? [])
        } catch {
            throw InputError("anchors: \(error.description)")
        }
    }
}
