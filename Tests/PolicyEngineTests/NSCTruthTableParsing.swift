import Testing

/// A config Android refuses to parse (XmlConfigSource throws, the app cannot connect): pinctl refuses it too,
/// naming the file and the line of the element at fault.
struct NSCParseError: Sendable, CustomTestStringConvertible {
    let config: String
    let build: NSCBuild
    /// The file named: the config, or its `_debug` companion.
    let file: String
    let line: Int
    let message: String

    init(_ config: String, line: Int, _ message: String, build: NSCBuild = .release, file: String? = nil) {
        self.config = config
        self.build = build
        self.file = file ?? config
        self.line = line
        self.message = message
    }

    var testDescription: String {
        "\(config)" + (build == .debuggable ? " (debuggable)" : "") + " → \(file):\(line): \(message)"
    }
}

// Lines counted by hand in Tests/Fixtures/nsc/res/xml/; messages are XmlConfigSource's.
let nscParseErrors: [NSCParseError] = [
    NSCParseError("bad_root.xml", line: 2, "the root element must be <network-security-config>"),
    NSCParseError("bad_two_base_configs.xml", line: 7, "Only one base-config allowed"),
    NSCParseError("bad_two_debug_overrides.xml", line: 5, "Only one debug-overrides allowed"),
    NSCParseError("bad_domain_in_base.xml", line: 4, "domain element not allowed in base-config"),
    NSCParseError("bad_pin_set_in_base.xml", line: 4, "pin-set element not allowed in base-config"),
    NSCParseError("bad_nested_in_base.xml", line: 4, "Nested domain-config not allowed in base-config"),
    NSCParseError("bad_domain_config_without_domain.xml", line: 3, "No domain elements in domain-config"),
    NSCParseError("bad_duplicate_domain.xml", line: 10, "www.example.com has already been specified"),
    NSCParseError("bad_two_trust_anchors.xml", line: 7, "Multiple trust-anchor elements not allowed"),
    NSCParseError("bad_certificates_without_src.xml", line: 5, "certificates element missing src attribute"),
    NSCParseError("bad_unknown_src.xml", line: 5,
                  "Unknown certificates src. Should be one of system|user|@resourceVal"),
    NSCParseError("bad_missing_raw.xml", line: 5, "@raw/absent: no file absent.*"),
    NSCParseError("shape_debug_raw_elsewhere.xml", line: 9, "@raw/charles_proxy: no file charles_proxy.*",
                  build: .debuggable),
    NSCParseError("bad_digest.xml", line: 6, "Unsupported pin digest algorithm: SHA-1"),
    NSCParseError("bad_missing_digest.xml", line: 6, "Unsupported pin digest algorithm: null"),
    NSCParseError("bad_empty_pin.xml", line: 6, "Missing pin digest"),
    NSCParseError("bad_pin_length.xml", line: 6, "digest length 20 does not match expected length for SHA-256 of 32"),
    NSCParseError("bad_pin_padding.xml", line: 6, "Invalid pin digest"),
    NSCParseError("bad_pin_prefix.xml", line: 6, "without sha256/"),
    NSCParseError("bad_expiration.xml", line: 5, "Invalid expiration date in pin-set"),
    NSCParseError("bad_expiration_format.xml", line: 5, "Invalid expiration date in pin-set"),
    NSCParseError("bad_not_xml.xml", line: 6, "not XML"),
    // What a release build never reads breaks only a debuggable one.
    NSCParseError("debug_release_skips.xml", line: 11, "@raw/absent: no file absent.*", build: .debuggable),
    NSCParseError("bad_extra_debug.xml", line: 2, "the root element must be <network-security-config>",
                  build: .debuggable, file: "bad_extra_debug_debug.xml"),
]

/// A `<pin>` text and what Android's Base64 makes of it: the 32 bytes of intermediate-ca.pem's key, or a refusal.
struct NSCPinText: Sendable, CustomTestStringConvertible {
    let text: String
    let accepted: Bool

    var testDescription: String { "\(text.debugDescription) → \(accepted ? "accepted" : "refused")" }
}

/// intermediate-ca.pem's SHA-256 SPKI pin, from certs/libraries/spki-pins.txt; it holds both '+' and '/'.
let intermediatePin = "bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y="

// android.util.Base64.decode(text, DEFAULT), state by state.
let nscPinTexts: [NSCPinText] = [
    NSCPinText(text: intermediatePin, accepted: true),
    NSCPinText(text: String(intermediatePin.dropLast()), accepted: true),                  // padding optional
    NSCPinText(text: "  bbv+fLky6GrmEz\n\tFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=  ", accepted: true),  // blanks skipped
    NSCPinText(text: "bbv+fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=\u{00A0}", accepted: true), // non-ASCII skipped
    NSCPinText(text: "bbv+fLky!6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=", accepted: true),      // '!' skipped
    NSCPinText(text: intermediatePin + "=", accepted: false),                              // "==" after three
    NSCPinText(text: intermediatePin + "A", accepted: false),                              // data after padding
    NSCPinText(text: "bbv+=fLky6GrmEzFCOm7/xxYQU5cFo8n42LCD+NYPj6Y=", accepted: false),     // '=' after one
    NSCPinText(text: "bbv-fLky6GrmEzFCOm7_xxYQU5cFo8n42LCD-NYPj6Y=", accepted: false),      // base64url loses 3
    NSCPinText(text: "sha256/" + intermediatePin, accepted: false),
    NSCPinText(text: String(intermediatePin.dropLast(2)), accepted: false),                // 42 characters: 31 bytes
]

/// An `expiration` value and the day SimpleDateFormat("yyyy-MM-dd") (non-lenient) reads, or nil: refused.
struct NSCExpiration: Sendable, CustomTestStringConvertible {
    let text: String
    let day: String?

    var testDescription: String { "\(text.debugDescription) → \(day ?? "refused")" }
}

let nscExpirations: [NSCExpiration] = [
    NSCExpiration(text: "2027-06-30", day: "2027-06-30"),
    NSCExpiration(text: "2027-6-30", day: "2027-06-30"),
    NSCExpiration(text: "2027-06-030", day: "2027-06-30"),
    NSCExpiration(text: " 2027-06-30", day: "2027-06-30"),
    NSCExpiration(text: "2027-\t06- 30", day: "2027-06-30"),
    NSCExpiration(text: "2027-06-30T18:00:00Z", day: "2027-06-30"),
    NSCExpiration(text: "2027-06-30 is the day", day: "2027-06-30"),
    NSCExpiration(text: "2028-02-29", day: "2028-02-29"),
    NSCExpiration(text: "2027-02-29", day: nil),
    NSCExpiration(text: "2027-06-31", day: nil),
    NSCExpiration(text: "2027-13-01", day: nil),
    NSCExpiration(text: "2027-00-10", day: nil),
    NSCExpiration(text: "0000-01-01", day: nil),
    NSCExpiration(text: "2027-06-300", day: nil),
    NSCExpiration(text: "2027/06/30", day: nil),
    NSCExpiration(text: "2027-06", day: nil),
    NSCExpiration(text: "2027-06-", day: nil),
    NSCExpiration(text: "+2027-06-30", day: nil),
    NSCExpiration(text: "30-06-2027", day: nil),
    NSCExpiration(text: "", day: nil),
]

/// An attribute value and the boolean `getAttributeBooleanValue(…, false)` returns once aapt has compiled it.
struct NSCBoolean: Sendable, CustomTestStringConvertible {
    let text: String
    let value: Bool

    var testDescription: String { "\(text.debugDescription) → \(value)" }
}

let nscBooleans: [NSCBoolean] = [
    NSCBoolean(text: "true", value: true), NSCBoolean(text: "True", value: true), NSCBoolean(text: "TRUE", value: true),
    NSCBoolean(text: " true\n", value: true), NSCBoolean(text: "tRuE", value: false),
    NSCBoolean(text: "false", value: false), NSCBoolean(text: "yes", value: false), NSCBoolean(text: "", value: false),
    NSCBoolean(text: "1", value: true), NSCBoolean(text: "-1", value: true), NSCBoolean(text: "0", value: false),
    NSCBoolean(text: "0x10", value: true), NSCBoolean(text: "0x0", value: false), NSCBoolean(text: "1.0", value: false),
    NSCBoolean(text: "99999999999", value: false), NSCBoolean(text: "#fff", value: true),
    NSCBoolean(text: "#00000000", value: false),
]
