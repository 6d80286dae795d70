internal import COpenSSL
import Foundation

/// The inputs of one `X509_STORE_CTX` run besides the certificates.
public struct VerificationOptions: Sendable {
    /// The evaluation time; never the clock inside the verifier.
    public var time: Date
    /// A DNS name or IP literal the leaf must carry in its subject alternative names; nil checks no name.
    public var domain: String?
    /// Whether the leaf must be fit for TLS server use and carry `domain` (AFSecurityPolicy's validatesDomainName).
    public var checksServerIdentity: Bool

    public init(time: Date, domain: String?, checksServerIdentity: Bool) {
        self.time = time
        self.domain = domain
        self.checksServerIdentity = checksServerIdentity
    }
}

/// OpenSSL's first complaint about a chain: which check, at which depth, on which certificate.
public struct VerificationFailure: Sendable, Equatable {
    /// The `X509_V_ERR_*` code.
    public let code: Int32
    /// OpenSSL's text for the code, e.g. "certificate has expired".
    public let message: String
    /// 0 for the leaf.
    public let depth: Int
    public let certificate: X509Certificate?

    public static let expired = X509_V_ERR_CERT_HAS_EXPIRED
    public static let notYetValid = X509_V_ERR_CERT_NOT_YET_VALID
    public static let hostnameMismatch = X509_V_ERR_HOSTNAME_MISMATCH
    public static let ipAddressMismatch = X509_V_ERR_IP_ADDRESS_MISMATCH
    public static let invalidPurpose = X509_V_ERR_INVALID_PURPOSE

    /// The chain stops because no anchor issued its top certificate (errors 2, 18, 19, 20).
    public var isMissingIssuer: Bool {
        [X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
         X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN].contains(code)
    }
}

/// The chain OpenSSL built, leaf first, and its first failure, if any.
public struct ChainVerification: Sendable {
    /// As far as OpenSSL got: complete to an anchor when `failure` is nil.
    public let chain: [X509Certificate]
    public let failure: VerificationFailure?

    public var isValid: Bool { failure == nil }
}

/// One `X509_STORE_CTX` run with the settings of DESIGN §2.
public enum ChainVerifier {
    /// Builds and verifies a chain from `leaf`, with `untrusted` as candidate intermediates and `store` as anchors.
    public static func verify(
        leaf: X509Certificate,
        untrusted: [X509Certificate],
        store: TrustStore,
        options: VerificationOptions
    ) -> ChainVerification {
        OpenSSLError.clearQueue()
        let recorder = FailureRecorder()
        if options.checksServerIdentity,
            leaf.withUnsafeX509Pointer({ X509_check_purpose($0, X509_PURPOSE_SSL_SERVER, 0) }) != 1 {
            // Apple checks key usage and extended key usage on the leaf only; OpenSSL's purpose setting would
            // also check every CA above it, so the leaf is checked here and the context gets no purpose.
            recorder.record(code: X509_V_ERR_INVALID_PURPOSE, depth: 0, certificate: leaf.pointer)
        }

        guard let ctx = X509_STORE_CTX_new() else { fatalError("X509_STORE_CTX_new: out of memory") }
        defer { X509_STORE_CTX_free(ctx) }
        guard let stack = COpenSSLShim_sk_X509_new_null() else { fatalError("sk_X509_new_null: out of memory") }
        // sk_X509_push does not up-ref: the stack only borrows, so it is freed without freeing its certificates.
        defer { COpenSSLShim_sk_X509_free(stack) }
        for certificate in untrusted {
            guard COpenSSLShim_sk_X509_push(stack, certificate.pointer) > 0 else { fatalError("sk_X509_push: out of memory") }
        }

        let known = [leaf] + untrusted
        return withExtendedLifetime((known, store, recorder)) {
            guard X509_STORE_CTX_init(ctx, store.pointer, leaf.pointer, stack) == 1 else {
                fatalError("X509_STORE_CTX_init: \(OpenSSLError.drain("init"))")
            }
            configure(X509_STORE_CTX_get0_param(ctx), options)
            _ = COpenSSLShim_X509_STORE_CTX_set_app_data(ctx, Unmanaged.passUnretained(recorder).toOpaque())
            X509_STORE_CTX_set_verify_cb(ctx, recordAndContinue)

            let result = X509_verify_cert(ctx)
            if result != 1, recorder.first == nil {
                // Only an internal error can end verification while the callback says "continue".
                recorder.record(code: X509_STORE_CTX_get_error(ctx), depth: 0, certificate: leaf.pointer)
            }
            OpenSSLError.clearQueue()

            // get0: the chain belongs to the context; certificates we did not pass in are up-ref'd and wrapped.
            var chain: [X509Certificate] = []
            if let built = X509_STORE_CTX_get0_chain(ctx) {
                for index in 0..<COpenSSLShim_sk_X509_num(built) {
                    guard let pointer = COpenSSLShim_sk_X509_value(built, index) else { continue }
                    chain.append(wrap(pointer, known: known + chain))
                }
            }
            let failure = recorder.first.map { first in
                VerificationFailure(
                    code: first.code,
                    message: String(cString: X509_verify_cert_error_string(Int(first.code))),
                    depth: first.depth,
                    certificate: first.certificate.map { wrap($0, known: known + chain) }
                )
            }
            return ChainVerification(chain: chain.isEmpty ? [leaf] : chain, failure: failure)
        }
    }

    private static func configure(_ param: OpaquePointer?, _ options: VerificationOptions) {
        guard let param else { fatalError("X509_STORE_CTX_get0_param returned nil") }
        let flags = UInt(X509_V_FLAG_X509_STRICT) | UInt(X509_V_FLAG_PARTIAL_CHAIN)
        X509_VERIFY_PARAM_set_flags(param, flags)
        // Callers validate the time first (an input error otherwise); clamping here only keeps a bad caller from trapping.
        X509_VERIFY_PARAM_set_time(
            param, ValidationTime.timeT(options.time) ?? time_t(ValidationTime.latestSeconds))
        guard options.checksServerIdentity, let domain = options.domain else { return }
        let name = DomainName(domain)
        if name.isIPAddress {
            if X509_VERIFY_PARAM_set1_ip_asc(param, name.value) != 1 { OpenSSLError.clearQueue() }
        } else {
            X509_VERIFY_PARAM_set_hostflags(
                param, UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT | X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
            if X509_VERIFY_PARAM_set1_host(param, name.value, 0) != 1 { OpenSSLError.clearQueue() }
        }
    }

    private static func wrap(_ pointer: OpaquePointer, known: [X509Certificate]) -> X509Certificate {
        if let same = known.first(where: { $0.pointer == pointer }) { return same }
        X509_up_ref(pointer)
        // A certificate OpenSSL already parsed and verified re-encodes; failing here means memory is exhausted.
        guard let certificate = try? X509Certificate(takingOwnership: pointer) else {
            fatalError("re-reading a certificate from the trust store failed")
        }
        return certificate
    }
}

/// A host name or IP literal as given on the command line or in a URL.
public struct DomainName: Sendable {
    /// Without IPv6 brackets.
    public let value: String
    public let isIPAddress: Bool

    public init(_ raw: String) {
        var text = raw
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        value = text
        var v4 = in_addr()
        var v6 = in6_addr()
        isIPAddress = inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

private final class FailureRecorder {
    struct First {
        let code: Int32
        let depth: Int
        let certificate: OpaquePointer?
    }
    var first: First?

    func record(code: Int32, depth: Int, certificate: OpaquePointer?) {
        guard first == nil else { return }
        first = First(code: code, depth: depth, certificate: certificate)
    }
}

/// Records the first error and lets OpenSSL go on, so the whole path is built even when a check fails.
private let recordAndContinue: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, ctx in
    guard ok == 0, let ctx, let data = COpenSSLShim_X509_STORE_CTX_get_app_data(ctx) else { return ok }
    let recorder = Unmanaged<FailureRecorder>.fromOpaque(data).takeUnretainedValue()
    // get0: the current certificate belongs to the context, which outlives the recorder's use of it.
    recorder.record(
        code: X509_STORE_CTX_get_error(ctx),
        depth: Int(X509_STORE_CTX_get_error_depth(ctx)),
        certificate: X509_STORE_CTX_get_current_cert(ctx))
    return 1
}
