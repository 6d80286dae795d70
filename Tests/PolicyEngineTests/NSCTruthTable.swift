import Foundation
import OpenSSLWrapper
import PolicyEngine
import TestSupport
import Testing

/// The chains a server presents, from certs/libraries/ (leaf first).
enum NSCChain: String, Sendable {
    /// leaf + intermediate-ca, under root-ca (the "system" store); SANs api., www., example.com.
    case leaf = "leaf-chain.pem"
    /// leaf-other-intermediate + other-intermediate-ca, under root-ca; a key no config pins.
    case otherIntermediate = "leaf-other-intermediate-chain.pem"
    /// leaf-other-root + its intermediate, under other-root-ca (not in the store; @raw/other_root, @raw/debug_ca).
    case otherRoot = "leaf-other-root-chain.pem"
    /// wildcard-leaf (*.example.com, *.api.example.com) + intermediate-ca, under root-ca.
    case wildcard = "wildcard-leaf-chain.pem"
    /// leaf-under-expired-root alone, under expired-root-ca (expired 2025-01-01).
    case underExpiredRoot = "leaf-under-expired-root.pem"
    /// self-signed.pem alone (api.example.com, valid until 2125; @raw/self_signed).
    case selfSigned = "self-signed.pem"

    var certificates: [X509Certificate] { LibraryCerts.load(rawValue) }
}

/// The store standing for the device's system CAs.
enum NSCStore: Sendable {
    case root, expiredRoot

    var trustStore: TrustStore {
        switch self {
        case .root: return LibraryCerts.store()
        case .expiredRoot:
            do {
                return try TrustStore.caFiles([LibraryCerts.path("expired-root-ca.pem")], directories: [])
            } catch {
                fatalError("fixture libraries/expired-root-ca.pem: \(error)")
            }
        }
    }
}

enum NSCBuild: Sendable { case release, debuggable }

/// One connection: a config of Tests/Fixtures/nsc/res/xml/, a host, a presented chain, and Android's verdict.
struct NSCCase: Sendable, CustomTestStringConvertible {
    let config: String
    let host: String?
    let chain: NSCChain
    let build: NSCBuild
    let time: String
    let store: NSCStore
    let expected: ExpectedVerdict

    init(_ config: String, _ host: String?, _ chain: NSCChain, _ expected: ExpectedVerdict, build: NSCBuild = .release,
         at time: String = TestTime.nowText, store: NSCStore = .root) {
        self.config = config
        self.host = host
        self.chain = chain
        self.build = build
        self.time = time
        self.store = store
        self.expected = expected
    }

    var testDescription: String {
        "\(config), \(host ?? "no host"), \(chain.rawValue)" + (build == .debuggable ? ", debuggable" : "")
            + (time == TestTime.nowText ? "" : " at \(time)") + (store == .root ? "" : ", store expired-root-ca")
            + " → \(expected)"
    }
}

// Columns: config, host, chain, verdict (and the build, time and store when not release, 2026-06-01, root-ca).
// Chain indices: #0 leaf, #1 its intermediate (or, for leaf-under-expired-root, its root), #2 the anchor the
// server did not send. A chain without its anchor fails at its topmost certificate (#1; #0 when presented alone).
let nscTruthTable: [NSCCase] = [
    // The platform's defaults: the system CAs, no pins; an anchor's dates are never checked, a chain's are.
    NSCCase("empty_config.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("empty_config.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("empty_config.xml", "api.example.com", .leaf, .rejected("expired", at: 1), at: "2125-06-01T00:00:00Z"),
    NSCCase("empty_config.xml", "api.example.com", .underExpiredRoot, .notPinned, store: .expiredRoot),
    NSCCase("empty_config.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1), store: .expiredRoot),

    // An empty <trust-anchors> trusts nothing.
    NSCCase("empty_trust.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("empty_trust.xml", "www.example.com", .leaf, .notPinned),

    // The most specific domain: example.com* pins a key not in the chain, www.example.com the intermediate,
    // api.example.com* the store's root; base-config trusts nothing.
    NSCCase("most_specific.xml", "example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("most_specific.xml", "www.example.com", .leaf, .pinned(at: 1)),
    NSCCase("most_specific.xml", "WWW.Example.COM.", .leaf, .pinned(at: 1)),
    // One trailing dot is dropped, not two: "www.example.com." matches no domain (the CLI refuses such a host).
    NSCCase("most_specific.xml", "www.example.com..", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("most_specific.xml", "api.example.com", .leaf, .pinned(at: 2)),
    NSCCase("most_specific.xml", "x.api.example.com", .wildcard, .pinned(at: 2)),
    NSCCase("most_specific.xml", "y.example.com", .wildcard, .rejected("public-key-not-pinned")),
    NSCCase("most_specific.xml", "x.www.example.com", .wildcard, .rejected("hostname-mismatch", at: 0)),
    NSCCase("most_specific.xml", "example.org", .wildcard, .rejected("untrusted-chain", at: 1)),

    // Nesting: example.com* trusts system + @raw/other_root and pins other-root-ca (and a backup key).
    NSCCase("nested.xml", "example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("nested.xml", "example.com", .otherRoot, .pinned(at: 2)),
    NSCCase("nested.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("nested.xml", "www.example.com", .otherRoot, .pinned(at: 2)),
    NSCCase("nested.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("nested.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("nested.xml", "x.api.example.com", .wildcard, .pinned(at: 2)),
    NSCCase("nested.xml", "y.api.example.com", .wildcard, .rejected("public-key-not-pinned")),
    NSCCase("nested.xml", "uploads.example.com", .wildcard, .notPinned),
    NSCCase("nested.xml", "y.example.com", .wildcard, .rejected("public-key-not-pinned")),
    NSCCase("nested.xml", "static.example.com", .wildcard, .rejected("untrusted-chain", at: 1)),

    // base-config (written last) trusts @raw/other_root only; www.example.com inherits that and pins it.
    NSCCase("base_config.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("base_config.xml", "api.example.com", .otherRoot, .notPinned),
    NSCCase("base_config.xml", "www.example.com", .otherRoot, .pinned(at: 2)),
    NSCCase("base_config.xml", "www.example.com", .leaf, .rejected("untrusted-chain", at: 1)),

    // base-config without anchors: the platform's; the pinned root is the store's, never sent by the server.
    NSCCase("platform_default.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("platform_default.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("platform_default.xml", "www.example.com", .leaf, .pinned(at: 2)),
    NSCCase("platform_default.xml", nil, .leaf, .notPinned),

    // Expiration: pins hold until the instant 00:00 UTC of the day has strictly passed.
    NSCCase("expiration.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned"),
            at: "2026-05-31T23:59:59Z"),
    NSCCase("expiration.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned"),
            at: "2026-06-01T00:00:00Z"),
    NSCCase("expiration.xml", "www.example.com", .leaf, .failedOpen("expired on 2026-06-01"),
            at: "2026-06-01T00:00:01Z"),
    NSCCase("expiration.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("expiration.xml", "api.example.com", .leaf, .failedOpen("expired on 2027-06-30"),
            at: "2027-06-30T00:00:01Z"),
    NSCCase("expiration.xml", "example.com", .leaf, .failedOpen("expired on 2015-01-01")),
    NSCCase("expiration_lenient.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned"),
            at: "2026-01-05T00:00:00Z"),
    NSCCase("expiration_lenient.xml", "www.example.com", .leaf, .failedOpen("expired on 2026-01-05"),
            at: "2026-01-05T00:00:01Z"),
    NSCCase("expiration_lenient.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned"),
            at: "2026-01-05T00:00:00Z"),
    NSCCase("expiration_lenient.xml", "api.example.com", .leaf, .failedOpen("expired on 2026-01-05"),
            at: "2026-01-05T00:00:01Z"),
    NSCCase("expiration_lenient.xml", "example.com", .leaf, .rejected("public-key-not-pinned"),
            at: "2026-01-05T00:00:00Z"),
    NSCCase("expiration_lenient.xml", "example.com", .leaf, .failedOpen("expired on 2026-01-05"),
            at: "2026-01-05T00:00:01Z"),

    // overridePins: decided by the source of the chain's anchor; an overriding source wins a duplicate.
    NSCCase("override_pins.xml", "www.example.com", .leaf, .failedOpen("comes from system, which has overridePins")),
    NSCCase("override_pins.xml", "api.example.com", .leaf, .failedOpen("comes from @raw/store_root")),
    NSCCase("override_pins.xml", "example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("override_pins.xml", "example.com", .otherRoot, .failedOpen("comes from @raw/other_root")),

    // @raw anchors replace the system CAs: PEM, DER, a file of two roots (one expired).
    NSCCase("raw_anchors.xml", "www.example.com", .otherRoot, .notPinned),
    NSCCase("raw_anchors.xml", "www.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("raw_anchors.xml", "api.example.com", .otherRoot, .notPinned),
    NSCCase("raw_anchors.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("raw_anchors.xml", "example.com", .otherRoot, .notPinned),
    NSCCase("raw_anchors.xml", "example.com", .underExpiredRoot, .notPinned),
    NSCCase("raw_anchors.xml", "example.com", .leaf, .rejected("untrusted-chain", at: 1)),

    // An expired @raw anchor anchors, and its key can be pinned.
    NSCCase("expired_anchor.xml", "api.example.com", .underExpiredRoot, .notPinned),
    NSCCase("expired_anchor.xml", "www.example.com", .underExpiredRoot, .pinned(at: 1)),
    NSCCase("expired_anchor.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("self_signed_anchor.xml", "api.example.com", .selfSigned, .notPinned),
    NSCCase("self_signed_anchor.xml", "api.example.com", .selfSigned, .notPinned, at: "2200-01-01T00:00:00Z"),
    NSCCase("self_signed_anchor.xml", "www.example.com", .selfSigned, .rejected("untrusted-chain", at: 0)),

    // debug-overrides: nothing in a release build; in a debuggable one @raw/debug_ca joins every config and
    // bypasses the pins.
    NSCCase("debug_overrides.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("debug_overrides.xml", "api.example.com", .otherRoot, .notPinned, build: .debuggable),
    NSCCase("debug_overrides.xml", "www.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("debug_overrides.xml", "www.example.com", .otherRoot, .failedOpen("comes from @raw/debug_ca"),
            build: .debuggable),
    NSCCase("debug_overrides.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("debug_overrides.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned"), build: .debuggable),
    NSCCase("debug_overrides.xml", "example.com", .otherRoot, .failedOpen("comes from @raw/debug_ca"),
            build: .debuggable),
    NSCCase("debug_dedup.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("debug_dedup.xml", "www.example.com", .leaf, .failedOpen("comes from system"), build: .debuggable),
    NSCCase("debug_keeps_pins.xml", "www.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("debug_keeps_pins.xml", "www.example.com", .otherRoot, .rejected("public-key-not-pinned"),
            build: .debuggable),
    NSCCase("debug_release_skips.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("extra_debug.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("extra_debug.xml", "api.example.com", .otherRoot, .notPinned, build: .debuggable),
    NSCCase("bad_extra_debug.xml", "api.example.com", .leaf, .notPinned),

    // The app's configuration as shipped.
    NSCCase("network_security_config.xml", "api.example.com", .leaf, .pinned(at: 1)),
    NSCCase("network_security_config.xml", "example.com", .leaf, .pinned(at: 1)),
    NSCCase("network_security_config.xml", "legacy.api.example.com", .wildcard, .pinned(at: 1)),
    NSCCase("network_security_config.xml", "uploads.api.example.com", .wildcard, .notPinned),
    NSCCase("network_security_config.xml", "www.example.com", .leaf, .notPinned),
    NSCCase("network_security_config.xml", "api.example.com", .otherIntermediate,
            .rejected("public-key-not-pinned")),
    NSCCase("network_security_config.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("network_security_config.xml", "api.example.com", .otherRoot, .failedOpen("comes from @raw/debug_ca"),
            build: .debuggable),
    NSCCase("network_security_config.xml", "api.example.com", .underExpiredRoot,
            .rejected("public-key-not-pinned")),
    NSCCase("network_security_config.xml", "www.example.com", .underExpiredRoot,
            .rejected("untrusted-chain", at: 0)),
    NSCCase("network_security_config.xml", "api.example.com", .otherIntermediate,
            .failedOpen("expired on 2027-06-30"), at: "2027-06-30T00:00:01Z"),

    // The shapes real apps ship (Tests/Fixtures/nsc/README.md names each one's origin).
    NSCCase("shape_base_only.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_base_only.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_debug_only_user.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_debug_only_user.xml", "api.example.com", .leaf, .notPinned, build: .debuggable),
    NSCCase("shape_debug_only_user.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1),
            build: .debuggable),
    NSCCase("shape_base_debug_user.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_base_debug_user.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_base_debug_user.xml", "api.example.com", .otherRoot, .notPinned, build: .debuggable),
    NSCCase("shape_cleartext_levels.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_cleartext_levels.xml", "www.example.com", .leaf, .notPinned),
    NSCCase("shape_cleartext_levels.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_nested_pins.xml", "www.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_nested_pins.xml", "example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_nested_pins.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("shape_nested_pins.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_nested_pins.xml", "uploads.api.example.com", .wildcard, .notPinned),
    NSCCase("shape_nested_pins.xml", "x.api.example.com", .wildcard, .rejected("public-key-not-pinned")),
    NSCCase("shape_nested_pins.xml", "api.example.com", .leaf, .failedOpen("expired on 2030-01-31"),
            at: "2030-02-01T00:00:00Z"),
    NSCCase("shape_empty_anchors.xml", "api.example.com", .leaf, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_empty_anchors.xml", "www.example.com", .leaf, .notPinned),
    NSCCase("shape_raw_override_pins.xml", "api.example.com", .otherRoot, .failedOpen("comes from @raw/other_root")),
    NSCCase("shape_raw_override_pins.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("shape_pin_text.xml", "api.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_pin_text.xml", "api.example.com", .otherIntermediate, .rejected("public-key-not-pinned")),
    NSCCase("shape_debug_raw_elsewhere.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_hsts_and_pins.xml", "api.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_hsts_and_pins.xml", "www.example.com", .otherIntermediate, .pinned(at: 1)),
    NSCCase("shape_hsts_and_pins.xml", "example.com", .leaf, .notPinned),
    NSCCase("shape_hsts_and_pins.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_tools_ignore.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_tools_ignore.xml", "api.example.com", .leaf, .notPinned, build: .debuggable),
    NSCCase("shape_tools_ignore.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1),
            build: .debuggable),

    // Unknown elements are skipped with their contents; lenient values are read as Android reads them.
    NSCCase("unknown_elements.xml", "www.example.com", .leaf, .pinned(at: 1)),
    NSCCase("unknown_elements.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("lenient_values.xml", "www.example.com", .leaf, .pinned(at: 1)),
    NSCCase("lenient_values.xml", "x.api.example.com", .wildcard, .pinned(at: 1)),
    NSCCase("lenient_values.xml", "example.com", .leaf, .pinned(at: 1)),
    NSCCase("lenient_values.xml", "y.example.com", .wildcard, .notPinned),
    NSCCase("integer_boolean.xml", "y.example.com", .wildcard, .pinned(at: 1)),
] + nscShapeCorpusRows
