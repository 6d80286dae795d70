import ArgumentParser
import Foundation
import OpenSSLWrapper
import PolicyEngine

extension PinningMode: ExpressibleByArgument {}

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
    func trustStore() throws(InputError) -> TrustStore {
        guard !caFiles.isEmpty || !caPaths.isEmpty else { return TrustStore.system() }
        do {
            return try TrustStore.caFiles(caFiles, directories: caPaths)
        } catch {
            throw InputError("--ca-file/--ca-path \(error.description)")
        }
    }
}

/// The policy options shared by `check` and `verify` (DESIGN §3).
struct PolicyOptions: ParsableArguments {
    @Option(help: "Pinning mode: none, certificate or publickey.")
    var mode: PinningMode = .none

    @Option(name: .customLong("pins"), help: ArgumentHelp(
        "A pin file or a directory of them (.cer .crt .der .pem certificates, .pin hash files). Repeatable.",
        valueName: "path"))
    var pinPaths: [String] = []

    @Option(name: .customLong("pin"), help: ArgumentHelp(
        "An SPKI hash pin, sha256/BASE64 or pin-sha256=\"BASE64\". Repeatable.", valueName: "pin"))
    var inlinePins: [String] = []

    @Flag(help: "DANGEROUS: accept expired, self-signed and untrusted chains, as AFNetworking's allowInvalidCertificates.")
    var allowInvalidCertificates = false

    @Flag(help: "Do not check the host name or the leaf's TLS server usage (validatesDomainName = NO).")
    var noValidateDomainName = false

    @OptionGroup var anchors: AnchorOptions

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Warn about certificates expiring within this many days.", valueName: "days"))
    var warnDays: Int = 30

    func validate() throws {
        guard warnDays >= 0 else { throw ValidationError("--warn-days \(warnDays): must be 0 or more") }
    }

    /// The evaluator for this command line: policy, anchors, time; and the command line's own warnings.
    func evaluator() throws(InputError) -> (TrustEvaluator, warnings: [String]) {
        let (policy, warnings) = try policy()
        let evaluator = TrustEvaluator(
            policy: policy, anchors: try anchors.trustStore(), time: anchors.time, warnDays: warnDays)
        return (evaluator, warnings)
    }

    /// The policy with its pins loaded; configuration errors of DESIGN §4 are input errors.
    func policy() throws(InputError) -> (SecurityPolicy, warnings: [String]) {
        let pins = try PinLoader.load(paths: pinPaths, inline: inlinePins)
        var warnings: [String] = []
        var keyHashes = pins.keyHashes
        if mode == .certificate, !keyHashes.isEmpty {
            guard !pins.certificates.isEmpty else {
                throw InputError("--mode certificate compares whole certificates: hash pins (\(keyHashes[0].source)) "
                    + "cannot serve it; pin certificate files, or use --mode publickey")
            }
            warnings.append("\(keyHashes.count) hash pin(s) ignored: --mode certificate compares whole certificates")
            keyHashes = []
        }
        if allowInvalidCertificates, mode == .certificate {
            // The engine warns for the other modes, where the flag weakens more.
            warnings.append("--allow-invalid-certificates: the system trust gate is skipped; the chain must still "
                + "verify up to a pinned certificate")
        }
        let policy = SecurityPolicy(
            mode: mode,
            pinnedCertificates: pins.certificates,
            pinnedKeyHashes: keyHashes,
            allowInvalidCertificates: allowInvalidCertificates,
            validatesDomainName: !noValidateDomainName)
        return (policy, warnings)
    }
}

/// `--format` and `--quiet`.
struct OutputOptions: ParsableArguments {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(help: "Output format: text (for people) or json (one object per line).")
    var format: Format = .text

    @Flag(name: .shortAndLong, help: "Print only errors and rejections (on stderr).")
    var quiet = false
}
