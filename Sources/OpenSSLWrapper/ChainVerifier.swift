internal import COpenSSL
import FoundationEssentials

/// One `X509_STORE_CTX` run with the settings of DESIGN §2, and the checks Apple makes that OpenSSL 3.0 does not.
public enum ChainVerifier {
    /// Builds and verifies a chain from `leaf`, with `untrusted` as candidate intermediates and `store` as anchors.
    /// When the path OpenSSL builds fails, the other paths the candidates allow are tried (`PathBacktracking`).
    /// With `memo`, a verification it remembers is reused where running it again must give the same result.
    public static func verify(
        leaf: X509Certificate,
        untrusted: [X509Certificate],
        store: TrustStore,
        options: VerificationOptions,
        memo: VerificationMemo? = nil
    ) -> ChainVerification {
        let verify = {
            let first = run(leaf: leaf, untrusted: untrusted, store: store, onlyAnchor: nil, options: options)
            guard first.failure != nil else { return first }
            return backtrack(from: first, leaf: leaf, untrusted: untrusted, store: store, options: options)
        }
        guard let memo else { return verify() }
        return memo.verification(leaf: leaf, untrusted: untrusted, store: store, options: options, verify: verify)
    }

    /// One `X509_STORE_CTX` run. With `onlyAnchor`, that store certificate is the only one OpenSSL may look up (an
    /// untrusted set holding exactly one path's intermediates then leaves it no other path to build).
    static func run(
        leaf: X509Certificate, untrusted: [X509Certificate], store: TrustStore, onlyAnchor: X509Certificate?,
        options: VerificationOptions
    ) -> ChainVerification {
        OpenSSLError.clearQueue()
        let stack = borrowingStack(untrusted)
        // sk_X509_push does not up-ref: the stacks only borrow, so they are freed without freeing their certificates.
        defer { COpenSSLShim_sk_X509_free(stack) }
        let trusted = onlyAnchor.map { borrowingStack([$0]) }
        // set0_trusted_stack does not take the stack: it is freed here, after the context (deferred below) is.
        defer { if let trusted { COpenSSLShim_sk_X509_free(trusted) } }
        guard let ctx = X509_STORE_CTX_new() else { fatalError("X509_STORE_CTX_new: out of memory") }
        defer { X509_STORE_CTX_free(ctx) }

        let recorder = FailureRecorder(checksAnchorValidity: options.checksAnchorValidity)
        // The store's listed anchors were wrapped when it was made; reusing them spares reading the anchor back on
        // every run, which `pinctl serve` pays per probe against the one store of its policy file.
        let known = [leaf] + untrusted + (onlyAnchor.map { [$0] } ?? []) + store.certificates
        return withExtendedLifetime((known, store, recorder)) {
            guard X509_STORE_CTX_init(ctx, store.pointer, leaf.pointer, stack) == 1 else {
                fatalError("X509_STORE_CTX_init: \(OpenSSLError.drain("init"))")
            }
            if let trusted { X509_STORE_CTX_set0_trusted_stack(ctx, trusted) }
            // get0: the parameters belong to the context.
            guard let param = X509_STORE_CTX_get0_param(ctx) else { fatalError("X509_STORE_CTX_get0_param: nil") }
            if let refused = VerificationSettings.apply(options, to: param) {
                let failure = VerificationFailure(
                    code: X509_V_ERR_UNSPECIFIED, message: refused, depth: 0, certificate: nil)
                return ChainVerification(chain: [leaf], failure: failure, warnings: [], anchor: nil)
            }
            checkLeaf(leaf, options, into: recorder)
            _ = COpenSSLShim_X509_STORE_CTX_set_app_data(ctx, Unmanaged.passUnretained(recorder).toOpaque())
            X509_STORE_CTX_set_verify_cb(ctx, recordAndContinue)
            // Each signature checked once in the process, however many versions verify the chain (`SignatureMemo`).
            X509_STORE_CTX_set_verify(ctx, ChainSignatures.verify)

            let result = X509_verify_cert(ctx)
            if result != 1, recorder.first == nil {
                // Only an internal error can end verification while the callback says "continue".
                recorder.record(code: X509_STORE_CTX_get_error(ctx), depth: 0, certificate: leaf.pointer)
            }
            OpenSSLError.clearQueue()

            // get0: the chain belongs to the context.
            var built: [OpaquePointer] = []
            if let chain = X509_STORE_CTX_get0_chain(ctx) {
                for index in 0..<COpenSSLShim_sk_X509_num(chain) {
                    if let pointer = COpenSSLShim_sk_X509_value(chain, index) { built.append(pointer) }
                }
            }
            if recorder.first == nil { checkChain(built, into: recorder) }
            // The certificates past the untrusted ones came from the store: the last of them is the anchor.
            let endsAtAnchor = built.count > Int(X509_STORE_CTX_get_num_untrusted(ctx))
            let verified = readBack(built, failure: recorder.first, known: known, origin: store.origin,
                                    endsAtAnchor: endsAtAnchor, warnings: store.undecodedAnchorWarnings)
            // The path rule (a platform's rules, handed down by the engine) judges the path built, like pinctl's own
            // checks, so that backtracking tries another path when it refuses this one (Apple's path builder weighs
            // policy failures the same way). Its rules are a TLS server policy's: a basic X.509 evaluation has none.
            guard verified.failure == nil, options.checksServerUsage, let anchor = verified.anchor,
                  let ruling = options.pathRule?.judge(verified.chain, anchor: anchor, at: options.time),
                  ruling.refusal != nil || !ruling.warnings.isEmpty
            else { return verified }
            let failure = ruling.refusal.map { refusal in
                VerificationFailure(code: VerificationFailure.pathRuleCode, message: refusal.message,
                                    depth: refusal.depth, certificate: verified.chain[refusal.depth])
            }
            return ChainVerification(chain: verified.chain, failure: failure,
                                     warnings: verified.warnings + ruling.warnings, anchor: anchor)
        }
    }

    /// A stack that borrows the certificates (`sk_X509_push` takes no reference): free it with `sk_X509_free`.
    private static func borrowingStack(_ certificates: [X509Certificate]) -> OpaquePointer {
        guard let stack = COpenSSLShim_sk_X509_new_null() else { fatalError("sk_X509_new_null: out of memory") }
        for certificate in certificates {
            guard COpenSSLShim_sk_X509_push(stack, certificate.pointer) > 0 else {
                fatalError("sk_X509_push: out of memory")
            }
        }
        return stack
    }

    /// What is checked on the leaf before OpenSSL runs: its key type (OpenSSL checks the leaf's key size first too)
    /// and, with server identity, its fitness for TLS servers.
    private static func checkLeaf(
        _ leaf: X509Certificate, _ options: VerificationOptions, into recorder: FailureRecorder
    ) {
        if let problem = KeyPolicy.unacceptableKeyType(of: leaf.pointer) {
            recorder.record(code: KeyPolicy.keyCode(depth: 0), depth: 0, certificate: leaf.pointer, message: problem)
        }
        if options.checksServerUsage, X509_check_purpose(leaf.pointer, X509_PURPOSE_SSL_SERVER, 0) != 1 {
            // Apple checks key usage and extended key usage on the leaf only; OpenSSL's purpose setting would
            // also check every CA above it, so the leaf is checked here and the context gets no purpose.
            recorder.record(code: X509_V_ERR_INVALID_PURPOSE, depth: 0, certificate: leaf.pointer)
        }
    }

    /// What is checked on a chain OpenSSL accepted: the key type of every certificate above the leaf, the anchor
    /// included, then the form of name constraints and wildcards against excluded subtrees (OpenSSL checks name
    /// constraints last, too).
    private static func checkChain(_ chain: [OpaquePointer], into recorder: FailureRecorder) {
        for (depth, certificate) in chain.enumerated().dropFirst() {
            guard let problem = KeyPolicy.unacceptableKeyType(of: certificate) else { continue }
            recorder.record(
                code: KeyPolicy.keyCode(depth: depth), depth: depth, certificate: certificate, message: problem)
            return
        }
        // Each check with the code of OpenSSL's nearest one; the first violation found is the chain's failure.
        let checks: [(code: Int32, firstViolation: ([OpaquePointer]) -> ChainViolation?)] = [
            (X509_V_ERR_INVALID_EXTENSION, CertificateForm.firstViolation),
            (X509_V_ERR_INVALID_EXTENSION, NameConstraintsForm.firstViolation),
            (X509_V_ERR_EXCLUDED_VIOLATION, WildcardExclusion.firstViolation),
        ]
        for check in checks {
            guard let violation = check.firstViolation(chain) else { continue }
            recorder.record(code: check.code, depth: violation.depth, certificate: violation.certificate,
                            message: violation.message)
            return
        }
    }

    /// The built chain and its failure as Swift values. A certificate OpenSSL took from the store but pinctl cannot
    /// read is left out of the chain with a warning naming it; the failure still names it, by subject. `warnings`
    /// come first: the store's own (its anchors that could not be decoded).
    private static func readBack(
        _ built: [OpaquePointer], failure first: FailureRecorder.First?, known: [X509Certificate], origin: String,
        endsAtAnchor: Bool, warnings: [String]
    ) -> ChainVerification {
        var reader = StoreReader(known: known, origin: origin)
        let chain = built.compactMap { reader.certificate($0) }
        let failure = first.map { first in
            let explained = first.message
                ?? first.certificate.flatMap { KeyPolicy.explain(code: first.code, certificate: $0) }
                ?? String(cString: X509_verify_cert_error_string(Int(first.code)))
            return VerificationFailure(
                code: first.code, message: explained, depth: first.depth,
                certificate: first.certificate.flatMap { reader.certificate($0) },
                subject: first.certificate.map { X509Certificate.subject(of: $0) })
        }
        let anchor = endsAtAnchor ? built.last.flatMap { reader.certificate($0) } : nil
        return ChainVerification(
            chain: chain.isEmpty ? [known[0]] : chain, failure: failure, warnings: warnings + reader.warnings,
            anchor: anchor)
    }
}

/// Wraps the certificates of a run once each: those passed in are reused, the store's are read back.
private struct StoreReader {
    let origin: String
    private var wrapped: [OpaquePointer: X509Certificate?]
    private(set) var warnings: [String] = []

    init(known: [X509Certificate], origin: String) {
        self.origin = origin
        wrapped = Dictionary(known.map { ($0.pointer, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func certificate(_ pointer: OpaquePointer) -> X509Certificate? {
        if let done = wrapped[pointer] { return done }
        switch X509Certificate.readBack(borrowing: pointer) {
        case .success(let certificate):
            wrapped[pointer] = certificate
            return certificate
        case .failure(let error):
            wrapped[pointer] = .some(nil)
            warnings.append("\(origin): the certificate \(X509Certificate.subject(of: pointer)) cannot be read "
                + "(\(error)): it is left out of the chain; replace or remove that entry")
            return nil
        }
    }
}

private final class FailureRecorder {
    struct First {
        let code: Int32
        let depth: Int
        let certificate: OpaquePointer?
        /// pinctl's sentence, for its own checks; nil takes OpenSSL's text or KeyPolicy's explanation.
        let message: String?
    }
    var first: First?
    /// False for Android's semantics: date errors on a certificate from the store are not failures.
    let checksAnchorValidity: Bool

    init(checksAnchorValidity: Bool) { self.checksAnchorValidity = checksAnchorValidity }

    func record(code: Int32, depth: Int, certificate: OpaquePointer?, message: String? = nil) {
        guard first == nil else { return }
        first = First(code: code, depth: depth, certificate: certificate, message: message)
    }
}

/// Records the first error and lets OpenSSL go on, so the whole path is built even when a check fails.
private let recordAndContinue: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, ctx in
    guard ok == 0, let ctx, let data = COpenSSLShim_X509_STORE_CTX_get_app_data(ctx) else { return ok }
    let recorder = Unmanaged<FailureRecorder>.fromOpaque(data).takeUnretainedValue()
    let code = X509_STORE_CTX_get_error(ctx)
    let depth = X509_STORE_CTX_get_error_depth(ctx)
    // get0: the current certificate belongs to the context, which outlives the recorder's use of it.
    let current = X509_STORE_CTX_get_current_cert(ctx)
    if OpenSSLOnlyRefusal.contains(code: code, certificate: current, context: ctx) { return 1 }
    // A depth at or past the untrusted certificates is a certificate from the store: a trust anchor.
    if !recorder.checksAnchorValidity, code == X509_V_ERR_CERT_HAS_EXPIRED || code == X509_V_ERR_CERT_NOT_YET_VALID,
       depth >= X509_STORE_CTX_get_num_untrusted(ctx) {
        return 1
    }
    recorder.record(code: code, depth: Int(depth), certificate: current)
    return 1
}
