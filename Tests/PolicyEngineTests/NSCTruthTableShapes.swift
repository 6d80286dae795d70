/// Connections to the shapes of #19 (Tests/Fixtures/nsc/README.md names each one's origin) and Android's verdict,
/// worked out by hand from the file and the chains of certs/libraries/. Part of `nscTruthTable`, so every row is also
/// judged through an export (`NSCExportRoundTripTests`).
let nscShapeCorpusRows: [NSCCase] = [
    NSCCase("shape_dev_hosts_cleartext.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_dev_hosts_base_false.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    // Four pins, the first the leaf's; the base-config written last still gives the system CAs only.
    NSCCase("shape_base_after_pins.xml", "api.example.com", .leaf, .pinned(at: 0)),
    NSCCase("shape_base_after_pins.xml", "api.example.com", .otherIntermediate, .pinned(at: 1)),
    NSCCase("shape_base_after_pins.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    // The bundled root (a copy of root-ca.pem) is the only anchor; trustkit-config is skipped.
    NSCCase("shape_trustkit_android_config.xml", "api.example.com", .leaf, .pinned(at: 0)),
    NSCCase("shape_trustkit_android_config.xml", "www.example.com", .leaf, .notPinned),
    NSCCase("shape_unread_attribute.xml", "api.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_unread_attribute.xml", "api.example.com", .otherIntermediate, .pinned(at: 1)),
    // Sibling domain-configs: the most specific domain decides.
    NSCCase("shape_sibling_pinned_domains.xml", "www.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_sibling_pinned_domains.xml", "api.example.com", .leaf, .pinned(at: 0)),
    NSCCase("shape_sibling_pinned_domains.xml", "uploads.api.example.com", .wildcard, .pinned(at: 2)),
    NSCCase("shape_sibling_pinned_domains.xml", "x.api.example.com", .wildcard, .rejected("public-key-not-pinned")),
    NSCCase("shape_base_raw_roots.xml", "api.example.com", .otherRoot, .notPinned),
    NSCCase("shape_many_raw_roots.xml", "api.example.com", .otherRoot, .notPinned),
    NSCCase("shape_many_raw_roots.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_base_user_before_system.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_base_commented_anchors.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_tabs_no_cleartext.xml", "api.example.com", .leaf, .notPinned),
    NSCCase("shape_debug_source_set.xml", "www.example.com", .leaf, .notPinned),
    NSCCase("shape_debug_system_and_user.xml", "api.example.com", .leaf, .notPinned, build: .debuggable),
    NSCCase("shape_revocation_cleartext.xml", "api.example.com", .otherRoot, .rejected("untrusted-chain", at: 1)),
    NSCCase("shape_anchors_and_pins_per_domain.xml", "api.example.com", .otherIntermediate, .pinned(at: 1)),
    NSCCase("shape_anchors_and_pins_per_domain.xml", "uploads.api.example.com", .wildcard, .notPinned),
    // A pin-set expired in 2018 is not enforced; placeholders alone match nothing.
    NSCCase("shape_expired_placeholder_pins.xml", "api.example.com", .leaf, .failedOpen("expired on 2018-01-01")),
    NSCCase("shape_expired_placeholder_pins.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("shape_library_test_domains.xml", "api.example.com", .leaf, .pinned(at: 1)),
    NSCCase("shape_library_test_domains.xml", "www.example.com", .leaf, .pinned(at: 0)),
    NSCCase("shape_library_test_domains.xml", "uploads.api.example.com", .wildcard, .notPinned),
    NSCCase("shape_debug_user_override_pins.xml", "api.example.com", .leaf, .rejected("public-key-not-pinned")),
    NSCCase("shape_stray_report_uri.xml", "api.example.com", .leaf, .pinned(at: 2)),
    NSCCase("shape_stray_report_uri.xml", "www.example.com", .leaf, .rejected("public-key-not-pinned")),
]
