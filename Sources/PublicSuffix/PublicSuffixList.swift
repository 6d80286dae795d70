internal import CLibPSL

/// The Public Suffix List as Debian's `publicsuffix` package ships it, read with libpsl: which names are
/// registries (`com`, `co.uk`, `github.io`), as TrustKit's configuration rules need.
// @unchecked Sendable: the psl_ctx_t is read-only once loaded, and libpsl's lookups do not mutate it.
public final class PublicSuffixList: @unchecked Sendable {
    /// Debian's copy of the list.
    public static let debianPath = "/usr/share/publicsuffix/public_suffix_list.dat"

    private let context: OpaquePointer

    /// The list loaded once, from Debian's file when present, else libpsl's built-in copy; or why libpsl, opened on
    /// first use (CLazyLibrary.h), cannot be.
    public static let shared: Result<PublicSuffixList, PublicSuffixListUnavailable> = {
        if let failure = CLibPSLOpen() { return .failure(PublicSuffixListUnavailable(reason: String(cString: failure))) }
        return .success(PublicSuffixList())
    }()

    private init() {
        // psl_latest returns whichever of the file and the built-in list is newer, or the built-in one.
        // psl_latest allocates a context of its own (freed by psl_free); psl_builtin's is static.
        if let loaded = psl_latest(Self.debianPath) {
            context = loaded
            ownsContext = true
        } else if let builtin = psl_builtin() {
            context = builtin
            ownsContext = false
        } else {
            fatalError("libpsl has no built-in Public Suffix List and \(Self.debianPath) is missing")
        }
    }

    private let ownsContext: Bool

    deinit {
        if ownsContext { psl_free(context) }
    }

    /// Whether `name` itself is a public suffix (a registry), without the implicit `*` rule that makes every
    /// unknown top-level name one.
    public func isPublicSuffix(_ name: String) -> Bool {
        psl_is_public_suffix2(context, name.lowercased(), CLibPSLShim_PSL_TYPE_ANY_NO_STAR()) == 1
    }

    /// The registry part of `name` (`co.uk` of `api.example.co.uk`), or nil when its top-level label is no known
    /// suffix (`localhost`, `example.internal`) or it is an IP address.
    public func registry(of name: String) -> String? {
        let lowered = name.lowercased()
        guard let tld = lowered.split(separator: ".").last, isPublicSuffix(String(tld)) else { return nil }
        // libpsl returns a pointer into the string it was given: read it before that C string is released (an
        // implicit String-to-pointer conversion lives only for the call, and AddressSanitizer caught the read after).
        return lowered.withCString { name in psl_unregistrable_domain(context, name).map { String(cString: $0) } }
    }
}

/// Why the Public Suffix List cannot be read: libpsl is missing or not the expected version.
public struct PublicSuffixListUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String

    public var description: String {
        "\(reason): pinctl reads the Public Suffix List with libpsl (Debian package libpsl5)"
    }
}
