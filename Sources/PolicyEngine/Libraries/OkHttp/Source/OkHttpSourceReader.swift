import FileAccess
import TextSyntax

/// OkHttp's `CertificatePinner.Builder()` calls in Kotlin (`.kt`, `.kts`) or Java (`.java`), or a `pattern sha256/…`
/// text list (any other file name): the pins the app adds, each checked as `Builder.add` checks it.
///
/// Every pattern and pin goes through `OkHttpPattern` and `OkHttpPin`, so what OkHttp throws on (the app crashes
/// building its pinner) is a configuration error naming the file and line; each pin's source is its file and line.
public enum OkHttpSourceReader {
    /// One `add(pattern, pins…)` or one line of a text list, before OkHttp's checks.
    struct Addition {
        let pattern: OkHttpAddArguments.Literal
        let pins: [OkHttpAddArguments.Literal]
    }

    /// `variant`: the build type or flavour whose `BuildConfig` values are read (nil: the file's values must agree);
    /// `defines`: values for names the source uses (`PIN`, `BuildConfig.PIN`), before the file's own.
    public static func read(_ path: String, hosts: [String], variant: String? = nil, defines: [String: String] = [:])
        throws(ConfigurationError) -> (policy: OkHttpPolicy, notes: [String])
    {
        try read(try ConfigurationError.contents(of: path), path: path, hosts: hosts, variant: variant,
                 defines: defines)
    }

    /// Reads `bytes` as the file at `path`, whose name's suffix says the form (`.kt`, `.kts`, `.java`, or a text list).
    public static func read(_ bytes: [UInt8], path: String, hosts: [String], variant: String? = nil,
                            defines: [String: String] = [:]) throws(ConfigurationError)
        -> (policy: OkHttpPolicy, notes: [String])
    {
        let name = Path.lastComponent(of: path)
        let suffix = name.contains(".") ? name.split(separator: ".").last.map { $0.lowercased() } : nil
        let (additions, notes): ([Addition], [String])
        switch suffix {
        case "kt", "kts":
            (additions, notes) = try source(bytes, path: path, language: .kotlin, variant: variant, defines: defines)
        case "java":
            (additions, notes) = try source(bytes, path: path, language: .java, variant: variant, defines: defines)
        default: (additions, notes) = (try OkHttpPinList.read(bytes, path: path), [])
        }
        let policy = OkHttpPolicy(entries: try entries(additions, path: path), hosts: hosts)
        return (policy, notes + skipped(additions, path))
    }

    /// The `add(…)` calls of every `CertificatePinner.Builder` in a source file.
    static func source(_ bytes: [UInt8], path: String, language: OkHttpSourceLanguage, variant: String? = nil,
                       defines: [String: String] = [:]) throws(ConfigurationError)
        -> (additions: [Addition], notes: [String])
    {
        // As every reader of text: a file holding a NUL (`config:` may name any file) is no source, and none of it
        // is read or quoted.
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw ConfigurationError(file: path, line: line, message: UntrustedText.nulByteReason)
        }
        let escapes: JavaUnicodeEscapes?
        do {
            escapes = language == .java ? try JavaUnicodeEscapes.translate(bytes) : nil
        } catch {
            throw ConfigurationError(file: path, line: error.line, column: error.column, message: "illegal unicode "
                + "escape: a \\u escape needs four hexadecimal digits, in a comment as anywhere in a Java file (JLS "
                + "§3.3), so the Java compiler refuses the file")
        }
        // Token ranges are offsets in the bytes lexed: the translated ones when Java's escapes were translated.
        let bytes = escapes?.bytes ?? bytes
        let tokens = try OkHttpSourceLexer.tokens(bytes, path: path, language: language, escapes: escapes)
        let found = try OkHttpBuilderCalls.find(tokens, path: path)
        guard !found.builderLines.isEmpty || !found.variables.isEmpty else {
            throw ConfigurationError(file: path, message: "no CertificatePinner.Builder() in this \(language.name) "
                + "file: pinctl reads the pins an app adds to one")
        }
        // BuildConfig's values are in the module's build file: read only when the source names BuildConfig.
        let buildConfig = tokens.contains { $0.identifier == "BuildConfig" }
            ? try GradleBuildConfig.nearest(to: path) : nil
        let constants = OkHttpConstants(tokens, path: path, buildConfig: buildConfig, variant: variant,
                                        defines: defines)
        var additions: [Addition] = []
        var notes = found.notes
        for call in found.calls {
            let arguments = try OkHttpAddArguments.read(callAt: call, tokens: tokens, constants: constants,
                                                        source: bytes, path: path)
            additions.append(Addition(pattern: arguments.pattern, pins: arguments.pins))
            for (role, argument) in [("pattern", arguments.pattern)] + arguments.pins.map({ ("pin", $0) })
            where !argument.constants.isEmpty {
                notes.append("\(path):\(argument.line): the \(role) \(argument.value) is read from "
                    + argument.constants.joined(separator: ", "))
            }
        }
        if found.builderLines.count > 1 {
            notes.append("\(path): \(found.builderLines.count) CertificatePinner builders (lines "
                + found.builderLines.map(String.init).joined(separator: ", ") + "): their pins are read as one policy")
        }
        if additions.isEmpty {
            notes.append("\(path): no add(…) call on a CertificatePinner builder: nothing is pinned")
        }
        return (additions, notes)
    }

    /// `Builder.add` makes one `Pin(pattern, pin)` per pin, checking the pattern, then the pin.
    static func entries(_ additions: [Addition], path: String) throws(ConfigurationError) -> [OkHttpPolicy.Entry] {
        var entries: [OkHttpPolicy.Entry] = []
        for addition in additions where !addition.pins.isEmpty {
            let written = addition.pattern
            let pattern: OkHttpPattern
            do {
                pattern = try OkHttpPattern(written.value)
            } catch {
                // A text list can be any file (`config:`): OkHttp's messages quote the value whole.
                let message = UntrustedText.redacting(written.value,
                                                      in: "the pattern \(written.value): \(error.explanation)")
                throw ConfigurationError(file: path, line: written.line, column: written.column, message: message)
            }
            if let problem = PolicyHostName.syntaxError(pattern.canonical, as: .okhttpPattern) {
                throw ConfigurationError(file: path, line: written.line, column: written.column,
                                         message: "the pattern \(written.value): \(problem)")
            }
            for pin in addition.pins {
                do {
                    // A value read from constants says which, wherever the pin is named (`P.kt:12 (from PIN (line
                    // 3))`): a reviewer finds the pin where its text is.
                    let source = pin.constants.isEmpty ? PinSource(.file(path: path, line: pin.line, entry: nil))
                        : PinSource(.configuration(path: path, line: pin.line,
                                                   keyPath: "from " + pin.constants.joined(separator: ", ")))
                    let parsed = try OkHttpPin.parse(pin.value, source: source)
                    entries.append(OkHttpPolicy.Entry(pattern: pattern, pin: parsed))
                } catch {
                    let message = UntrustedText.redacting(pin.value, in: "the pin: \(error.explanation)")
                    throw ConfigurationError(file: path, line: pin.line, column: pin.column, message: message)
                }
            }
        }
        return entries
    }

    /// `add("pattern")` with no pin adds nothing, and OkHttp checks no pattern then (`for (pin in pins)`).
    private static func skipped(_ additions: [Addition], _ path: String) -> [String] {
        additions.filter(\.pins.isEmpty).map {
            "\(path):\($0.pattern.line): add(\"\($0.pattern.value)\") names no pin, so OkHttp adds nothing for it"
        }
    }
}
