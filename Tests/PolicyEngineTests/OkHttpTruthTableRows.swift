import TestSupport

private let pkp = "public-key-not-pinned"

/// The leaf's pin as an app may write it and okio still reads it: no padding, the URL-safe alphabet, whitespace.
private let leafPin = LibraryCerts.pin(of: "leaf.pem")
private let leafBase64 = leafPin.dropFirst("sha256/".count)
private let leafUnpadded = "sha256/" + leafBase64.prefix { $0 != "=" }
private let leafURLSafe = "sha256/"
    + String(leafBase64.prefix { $0 != "=" }.map { character -> Character in
        character == "+" ? "-" : character == "/" ? "_" : character
    })
private let leafSpaced = "sha256/" + leafBase64.prefix(20) + " \t" + leafBase64.dropFirst(20) + "\r\n"
/// The leaf's SHA-1 bytes written under `sha256/`: 20 bytes where sha256 has 32.
private let sha1BytesUnderSHA256 = "sha256/" + LibraryCerts.sha1Pin(of: "leaf.pem").dropFirst(5)

// Columns: rule, add(pattern, pins) calls, chain (default leaf + intermediate), host (default api.example.com),
// verdict, warning. Derived by hand from OkHttp 5.4's CertificatePinner (matchesHostname, findMatchingPins, check),
// ConnectPlan.connectTls (trust, then the host, then the pins) and OkHostnameVerifier; root-ca.pem is the system store.
let okhttpTruthTable: [OkHttpRow] = [
    // `*.S`: the host ends with ".S" and what precedes has no dot, so exactly one label.
    OkHttpRow("*. one label", [("*.example.com", [.sha256(.leaf)])], .pinned(at: 0)),
    OkHttpRow("*. one label, pin elsewhere", [("*.example.com", [.sha256(.rekeyed)])], .rejected(pkp)),
    OkHttpRow("*. zero labels", [("*.example.com", [.sha256(.rekeyed)])], host: "example.com", .notPinned),
    OkHttpRow("*. two labels", [("*.example.com", [.sha256(.rekeyed)])], on: .wildcard, host: "x.api.example.com",
              .notPinned),
    OkHttpRow("*. case", [("*.EXAMPLE.Com", [.sha256(.rekeyed)])], host: "WWW.Example.COM", .rejected(pkp)),
    OkHttpRow("*. wildcard leaf", [("*.example.com", [.sha256(.wildcard)])], on: .wildcard,
              host: "anything.example.com", .pinned(at: 0)),
    OkHttpRow("*. label boundary", [("*.xample.com", [.sha256(.rekeyed)])], host: "example.com", .notPinned),

    // `**.S`: the host is S or ends with ".S": zero or more labels.
    OkHttpRow("**. apex", [("**.example.com", [.sha256(.rekeyed)])], host: "example.com", .rejected(pkp)),
    OkHttpRow("**. apex pinned", [("**.example.com", [.sha256(.leaf)])], host: "example.com", .pinned(at: 0)),
    OkHttpRow("**. one label", [("**.example.com", [.sha256(.rekeyed)])], host: "www.example.com", .rejected(pkp)),
    OkHttpRow("**. deeper", [("**.example.com", [.sha256(.rekeyed)])], on: .wildcard, host: "x.api.example.com",
              .rejected(pkp)),
    OkHttpRow("**. deeper pinned", [("**.example.com", [.sha256(.wildcard)])], on: .wildcard, host: "x.api.example.com",
              .pinned(at: 0)),
    OkHttpRow("**. case", [("**.Example.COM", [.sha256(.rekeyed)])], host: "API.EXAMPLE.COM", .rejected(pkp)),
    OkHttpRow("**. label boundary", [("**.xample.com", [.sha256(.rekeyed)])], host: "example.com", .notPinned),
    OkHttpRow("**. of a sibling", [("**.api.example.com", [.sha256(.rekeyed)])], host: "www.example.com", .notPinned),
    OkHttpRow("**. of a child", [("**.api.example.com", [.sha256(.rekeyed)])], host: "example.com", .notPinned),

    // An exact pattern: the canonical host, nothing else.
    OkHttpRow("exact, other host", [("api.example.com", [.sha256(.rekeyed)])], host: "www.example.com", .notPinned),
    OkHttpRow("exact, case", [("API.Example.COM", [.sha256(.leaf)])], host: "api.EXAMPLE.com", .pinned(at: 0)),

    // Pooling: the pins of every matching pattern, any one is enough; a non-matching pattern lends nothing.
    OkHttpRow("pooled: the second pattern's pin", [("*.example.com", [.sha256(.rekeyed)]),
                                                  ("api.example.com", [.sha256(.intermediate)])], .pinned(at: 1)),
    OkHttpRow("pooled: the root under **.", [("www.example.com", [.sha256(.rekeyed)]),
                                            ("**.example.com", [.sha256(.root)])], host: "www.example.com",
              .pinned(at: 2)),
    OkHttpRow("pooled: none in the chain", [("*.example.com", [.sha256(.rekeyed)]),
                                           ("api.example.com", [.sha256(.otherRoot)])], .rejected(pkp)),
    OkHttpRow("not pooled: another host's pattern", [("api.example.com", [.sha256(.leaf)]),
                                                    ("www.example.com", [.sha256(.rekeyed)])], host: "www.example.com",
              .rejected(pkp)),
    OkHttpRow("several pins, one pattern", [("api.example.com", [.sha256(.rekeyed), .sha256(.leaf)])], .pinned(at: 0)),

    // Where in the cleaned chain: any certificate, a store root the server did not send included; leaf first.
    OkHttpRow("pinRootNotPresentInChain", [("api.example.com", [.sha256(.root)])], .pinned(at: 2)),
    OkHttpRow("pinIntermediatePresentInChain", [("api.example.com", [.sha256(.intermediate)])], .pinned(at: 1)),
    OkHttpRow("leaf found first", [("api.example.com", [.sha256(.root), .sha256(.leaf)])], .pinned(at: 0)),

    // sha1/ pins: SHA-1 of the SPKI.
    OkHttpRow("sha1 leaf", [("api.example.com", [.sha1(.leaf)])], .pinned(at: 0)),
    OkHttpRow("sha1 root not sent", [("api.example.com", [.sha1(.root)])], .pinned(at: 2)),
    OkHttpRow("sha1 of another key", [("api.example.com", [.sha1(.rekeyed)])], .rejected(pkp)),
    OkHttpRow("sha1 pooled with sha256", [("api.example.com", [.sha256(.rekeyed)]),
                                         ("*.example.com", [.sha1(.intermediate)])], .pinned(at: 1)),

    // okio's lenient base64, and no length check.
    OkHttpRow("unpadded base64", [("api.example.com", [.written(leafUnpadded)])], .pinned(at: 0)),
    OkHttpRow("URL-safe base64", [("api.example.com", [.written(leafURLSafe)])], .pinned(at: 0)),
    OkHttpRow("whitespace in base64", [("api.example.com", [.written(leafSpaced)])], .pinned(at: 0)),
    OkHttpRow("20 bytes under sha256/", [("api.example.com", [.written(sha1BytesUnderSHA256)])], .rejected(pkp),
              warning: "has 20 bytes where sha256 has 32"),
    OkHttpRow("wrong length beside a good pin", [("api.example.com", [.written("sha256/AAAA"), .sha256(.leaf)])],
              .pinned(at: 0), warning: "has 3 bytes where sha256 has 32: OkHttp accepts it, and it can never match"),

    // No matching pattern: trusted, not pinned (the chain and the host still checked).
    OkHttpRow("no pattern matches", [("api.example.org", [.sha256(.rekeyed)])], .notPinned),
    OkHttpRow("no pins at all", [], .notPinned),
    OkHttpRow("no host", [("api.example.com", [.sha256(.rekeyed)])], host: nil, .notPinned,
              warning: "no host name was given"),

    // The platform's trust and the host name come first, whatever the pins.
    OkHttpRow("missing intermediate, leaf pinned", [("api.example.com", [.sha256(.leaf)])], on: .leafAlone,
              .rejected("untrusted-chain", at: 0)),
    OkHttpRow("missing intermediate, not pinned", [("api.example.org", [.sha256(.leaf)])], on: .leafAlone,
              .rejected("untrusted-chain", at: 0)),
    OkHttpRow("root not in the store, leaf pinned", [("api.example.com", [.sha256(.otherRootLeaf)])], on: .otherRoot,
              .rejected("untrusted-chain", at: 1)),
    OkHttpRow("wrong host, pinned", [("**.example.com", [.sha256(.leaf)])], host: "mail.example.com",
              .rejected("hostname-mismatch", at: 0)),
    OkHttpRow("wrong host, not pinned", [("api.example.org", [.sha256(.leaf)])], host: "mail.example.com",
              .rejected("hostname-mismatch", at: 0)),
    OkHttpRow("client-auth leaf, pinned", [("api.example.com", [.sha256(.clientAuth)])], on: .clientAuth,
              .rejected("not-for-tls-server", at: 0)),

    // A trailing dot (okhttp#9724): the host check accepts it, the patterns do not match it.
    OkHttpRow("dotted host, exact pattern", [("api.example.com", [.sha256(.leaf)])], host: "api.example.com.",
              .notPinned, warning: "okhttp#9724"),
    OkHttpRow("dotted host, **.", [("**.example.com", [.sha256(.rekeyed)])], host: "api.example.com.", .notPinned,
              warning: "okhttp#9724"),
    OkHttpRow("dotted host, dotted pattern", [("api.example.com.", [.sha256(.rekeyed)])], host: "api.example.com.",
              .rejected(pkp)),
    OkHttpRow("dotless host, dotted pattern", [("api.example.com.", [.sha256(.rekeyed)])], .notPinned),
    OkHttpRow("dotted wrong host", [("api.example.com", [.sha256(.leaf)])], host: "mail.example.com.",
              .rejected("hostname-mismatch", at: 0)),
]
