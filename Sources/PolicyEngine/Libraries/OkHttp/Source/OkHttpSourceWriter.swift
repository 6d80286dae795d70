import FoundationEssentials

/// Writes portable rules as OkHttp's `CertificatePinner`: a Kotlin snippet (`CertificatePinner.Builder()`, one
/// `.add("pattern", "sha256/…", …)` per pattern, `.build()`), a Java one (`new`, `;`), or a text list that
/// `OkHttpSourceReader` reads back. Patterns are written canonical and pins in order, so that reading an export gives
/// the same entries.
///
/// Scopes: exact → the domain, one label → `*.domain`, with subdomains → `**.domain`. OkHttp cannot say: an expiration
/// (its pins never expire), report-only pins (it always enforces), a host excluded below a pinned pattern, a whole
/// certificate (it pins keys, so the certificate's key is pinned): each goes to `losses`, and the file says so.
public enum OkHttpSourceWriter {
    /// The three forms: Kotlin, Java, a text list.
    enum Form: String {
        case kotlin, java, text
    }

    /// Writes `policy` in `format`, one of OkHttp's forms (`NativeExport.Format.okhttpKotlin`, …).
    public static func write(_ policy: PortablePolicy, format: NativeExport.Format, losses: inout ExportLosses)
        throws(ExportError) -> [UInt8]
    {
        guard let form = Form(rawValue: format.rawValue) else { 
            throw ExportError("\(format.rawValue) is not a form of OkHttp's pins (kotlin, java or text)")
        }
        return try write(policy, form: form, losses: &losses)
    }

    static func write(_ policy: PortablePolicy, form: Form, losses: inout ExportLosses) throws(ExportError) -> [UInt8] {
        let additions = try additions(policy, losses: &losses)
        guard !additions.isEmpty else { throw ExportError("the policy has no pin for OkHttp to add") }
        var header = ["Written by pinctl config export."]
        if !losses.isEmpty {
            header.append("Not expressible in OkHttp, dropped: " + losses.items.joined(separator: "; "))
        }
        switch form {
        case .kotlin:
            return Array((comment(header, marker: "//") + "import okhttp3.CertificatePinner\n\n"
                + "val certificatePinner = CertificatePinner.Builder()\n"
                + calls(additions, quote: { JavaSourceText.stringLiteral($0, .kotlin) }, trailingComma: true)
                + "    .build()\n").utf8)
        case .java:
            return Array((comment(header, marker: "//") + "import okhttp3.CertificatePinner;\n\n"
                + "CertificatePinner certificatePinner = new CertificatePinner.Builder()\n"
                + calls(additions, quote: { JavaSourceText.stringLiteral($0, .java) }, trailingComma: false)
                + "    .build();\n").utf8)
        case .text:
            let width = additions.map(\.pattern.count).max() ?? 0
            let lines = additions.map { addition in
                addition.pattern + String(repeating: " ", count: width + 2 - addition.pattern.count)
                    + addition.pins.map { $0.writtenText(in: .okhttp) ?? $0.text }.joined(separator: " ") + "\n"
            }
            return Array((comment(header + ["pattern pin [pin…] per line, as pinctl reads OkHttp pins"], marker: "#")
                + lines.joined()).utf8)
        }
    }

    /// One `add` per pattern, patterns in the rules' order, pins in order without repeats.
    static func additions(_ policy: PortablePolicy, losses: inout ExportLosses) throws(ExportError)
        -> [(pattern: String, pins: [PublicKeyPin])]
    {
        var additions: [(pattern: OkHttpPattern, pins: [PublicKeyPin])] = []
        for rule in policy.rules where !rule.excluded {
            let written = switch rule.scope {
            case .exact: rule.domain
            case .oneLabel: "*." + rule.domain
            case .withSubdomains: "**." + rule.domain
            }
            let pattern: OkHttpPattern
            do {
                pattern = try OkHttpPattern(written)
            } catch {
                throw ExportError("the pattern \(written) for \(rule.domain): \(error.explanation)")
            }
            if let expiration = rule.expiration {
                losses.add("the expiration of \(rule.domain)'s pins on \(Timestamp.day(expiration)) "
                    + "(OkHttp's pins never expire)")
            }
            if !rule.enforced { losses.add("report-only pinning of \(rule.domain) (OkHttp always enforces its pins)") }
            if !rule.certificates.isEmpty {
                losses.add("certificate pins of \(rule.domain) become pins of their keys (OkHttp pins keys)")
            }
            let pins = rule.allKeyPins
            guard !pins.isEmpty else { continue }
            if let index = additions.firstIndex(where: { $0.pattern == pattern }) {
                additions[index].pins += pins.filter { !additions[index].pins.contains($0) }
            } else {
                additions.append((pattern, pins.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }))
            }
        }
        // An excluded host loses something only where a pattern written above would pin it.
        for rule in policy.rules where rule.excluded {
            guard let host = OkHttpPattern.canonicalHost(rule.domain),
                  let covering = additions.first(where: { $0.pattern.matches(canonicalHost: host) })
            else { continue }
            losses.add("the exclusion of \(rule.domain) from the pins of \(covering.pattern) (OkHttp cannot unpin a "
                + "host a pattern covers)")
        }
        return additions.map { ($0.pattern.canonical, $0.pins) }
    }

    private static func calls(_ additions: [(pattern: String, pins: [PublicKeyPin])], quote: (String) -> String,
                              trailingComma: Bool) -> String
    {
        additions.map { addition in
            let arguments = [quote(addition.pattern)]
                + addition.pins.map { quote($0.writtenText(in: .okhttp) ?? $0.text) }
            let line = "    .add(" + arguments.joined(separator: ", ") + ")\n"
            guard line.count > 121 else { return line }
            return "    .add(\n" + arguments.map { "        " + $0 }.joined(separator: ",\n")
                + (trailingComma ? ",\n" : "\n") + "    )\n"
        }.joined()
    }

    /// Line comments of at most 120 columns, their text (a domain name from another library's file) written so that
    /// nothing escapes the comment: by the one Java and Kotlin comment rule after `//`; in the text list, where only a
    /// line break could end a `#` comment, with whitespace and control characters as spaces.
    static func comment(_ paragraphs: [String], marker: String) -> String {
        var lines: [String] = []
        for paragraph in paragraphs {
            let flat = marker == "//" ? JavaSourceText.commentText(paragraph)
                : String(paragraph.unicodeScalars.map { scalar -> Character in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isWhitespace
                        ? " " : Character(scalar)
                })
            var line = marker
            for word in flat.split(separator: " ") {
                if line.count + 1 + word.count > 120, line != marker {
                    lines.append(line)
                    line = marker + "  "
                }
                line += " " + word
            }
            lines.append(line)
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
