import Archives
import Artifacts
import TextSyntax

/// OkHttp pins as an APK's DEX carries them (DESIGN §14): every call of `CertificatePinner.Builder.add` whose
/// pattern and pins are string constants of the calling method. The compiler has already inlined `const val`,
/// `static final` and `BuildConfig` values there, which the source reader cannot always reach; what the method does
/// not fix (a parameter, a field, a value that depends on a branch) stops the reading at the method, and pin strings
/// no such call uses are said with every result, never dropped.
enum OkHttpBuildReading {
    /// OkHttp 4 and 5 (`okhttp3`): `fun add(pattern: String, vararg pins: String): Builder`.
    static let builder = "Lokhttp3/CertificatePinner$Builder;"
    static let addParameters = ["Ljava/lang/String;", "[Ljava/lang/String;"]
    /// Messages of OkHttp's CertificatePinner that R8 keeps as it renames classes: OkHttp is there, under other names.
    static let okhttpMessages = ["Certificate pinning failure!", "pins must start with 'sha256/' or 'sha1/': "]

    static func read(_ apk: APKArchive, hosts: [String]) throws(ConfigurationError) -> NativeConfiguration.Reading? {
        let names = dexEntries(apk.entries)
        guard !names.isEmpty else { return nil }
        let bytes: [String: [UInt8]]
        do throws(ArchiveError) {
            bytes = try apk.files { names.contains($0) }
        } catch {
            throw BuildConfiguration.refusal(error)
        }
        var files: [(entry: String, dex: DexFile)] = []
        for name in names {
            guard let data = bytes[name] else { continue }
            do throws(ArtifactFormatError) {
                files.append((name, try DexFile.parse(data)))
            } catch {
                throw unreadable(apk, name, error)
            }
        }
        // A builder subclass (Java's double-brace `new CertificatePinner.Builder() {{ add(…); }}`) calls `add` on
        // itself: its calls are the builder's.
        var superclasses: [String: String] = [:]
        var pinStrings: [(entry: String, text: String)] = []
        var namesOkHttp = false
        var hasMessages = false
        for file in files {
            do throws(ArtifactFormatError) {
                superclasses.merge(try file.dex.superclasses()) { first, _ in first }
                for index in 0..<file.dex.stringCount
                where candidatePrefixes.contains(where: { file.dex.string(index, hasPrefix: $0) }) {
                    let text = try file.dex.string(index)
                    if isPinString(text) { pinStrings.append((file.entry, text)) }
                    if text == builder { namesOkHttp = true }
                    if okhttpMessages.contains(text) { hasMessages = true }
                }
            } catch {
                throw unreadable(apk, file.entry, error)
            }
        }
        func isBuilder(_ type: String) -> Bool {
            var type = type
            for _ in 0..<64 {
                if type == builder { return true }
                guard let parent = superclasses[type] else { return false }
                type = parent
            }
            return false
        }
        var calls: [(entry: String, call: DexFile.Call)] = []
        var uses: [String: [String]] = [:]
        for file in files {
            do throws(ArtifactFormatError) {
                let found = try file.dex.scan(calling: { $0.name == "add" && isBuilder($0.owner) },
                                              stringsStartingWith: pinPrefixes)
                calls += found.calls.map { (file.entry, $0) }
                for use in found.strings where isPinString(use.string) {
                    uses[use.string, default: []].append(use.caller.readable)
                }
            } catch {
                throw unreadable(apk, file.entry, error)
            }
        }
        var entries: [OkHttpPolicy.Entry] = []
        var consumed: Set<String> = []
        var callers: [String] = []
        for (entry, call) in calls {
            let place = "\(call.caller.readable) (at byte \(call.offset))"
            guard call.method.parameters == addParameters, call.arguments.count == 3 else {
                throw ConfigurationError(file: apk.label(entry), message: "\(place) calls \(call.method.readable), "
                    + "an add of CertificatePinner.Builder pinctl does not know (it reads add(String, String...))")
            }
            func refusal(_ what: String, _ why: String) -> ConfigurationError {
                ConfigurationError(file: apk.label(entry), message: "\(place): the \(what) of CertificatePinner."
                    + "Builder.add is \(why): pinctl reads only string constants the calling method fixes "
                    + "(const-string, an array of them); give the pins inline, or import the source")
            }
            guard case .string(let written) = call.arguments[1] else {
                if case .unknown(let why) = call.arguments[1] { throw refusal("pattern", why) }
                throw refusal("pattern", "not a string")
            }
            let pins: [String]
            switch call.arguments[2] {
            case .strings(let texts): pins = texts
            case .string: throw refusal("pins argument", "a string, not an array")
            case .unknown(let why): throw refusal("pins argument", why)
            }
            if !callers.contains(call.caller.readable) { callers.append(call.caller.readable) }
            guard !pins.isEmpty else { continue }
            let pattern: OkHttpPattern
            do {
                pattern = try OkHttpPattern(written)
            } catch {
                throw ConfigurationError(file: apk.label(entry), message: UntrustedText.redacting(
                    written, in: "\(place): the pattern \(written): \(error.explanation)"))
            }
            if let problem = PolicyHostName.syntaxError(pattern.canonical, as: .okhttpPattern) {
                throw ConfigurationError(file: apk.label(entry),
                                         message: "\(place): the pattern \(written): \(problem)")
            }
            for pin in pins {
                do {
                    let source = PinSource(.configuration(path: apk.label(entry), line: nil,
                                                          keyPath: call.caller.readable))
                    entries.append(.init(pattern: pattern, pin: try OkHttpPin.parse(pin, source: source)))
                    consumed.insert(pin)
                } catch {
                    throw ConfigurationError(file: apk.label(entry), message: UntrustedText.redacting(
                        pin, in: "\(place): the pin: \(error.explanation)"))
                }
            }
        }
        let unused = pinStrings.filter { !consumed.contains($0.text) }
        func listed(_ strings: [(entry: String, text: String)]) -> String {
            strings.prefix(5).map { string in
                "\(string.text) (" + (uses[string.text].map { "in " + Array(Set($0)).sorted().prefix(3)
                    .joined(separator: ", ") } ?? "used by no code: a field's value or an annotation") + ")"
            }.joined(separator: ", ") + (strings.count > 5 ? " and \(strings.count - 5) more" : "")
        }
        guard !calls.isEmpty else {
            if !namesOkHttp, hasMessages, !unused.isEmpty {
                throw ConfigurationError(file: apk.label(unused[0].entry), message: "holds OkHttp's CertificatePinner "
                    + "under renamed classes (R8 or ProGuard: no okhttp3.CertificatePinner$Builder) and pin strings "
                    + listed(unused) + ": which calls pin cannot be identified; keep OkHttp's names "
                    + "(-keepnames class okhttp3.**) in the build pinctl reads, or import the source")
            }
            guard unused.isEmpty else {
                throw ConfigurationError(file: apk.label(unused[0].entry), message: "holds pin strings "
                    + listed(unused) + " that no call of okhttp3.CertificatePinner$Builder.add uses: pinctl cannot "
                    + "tell what pins with them; give --library for the other pinning the build configures")
            }
            return nil
        }
        let warnings = unused.isEmpty ? [] : ["\(apk.path): pin strings in the DEX that no CertificatePinner.Builder"
            + ".add call pinctl read uses: " + listed(unused) + "; if the app pins with them another way, pinctl does "
            + "not judge it"]
        // The warnings are said at import whatever --verbose says: not repeated among the notes.
        var notes: [String] = []
        if callers.count > 1 {
            notes.append("\(apk.path): CertificatePinner.Builder.add is called in \(callers.count) methods ("
                + callers.joined(separator: ", ") + "): their pins are read as one policy")
        }
        let policy = OkHttpPolicy(entries: entries, hosts: hosts, readingWarnings: warnings)
        return .init(policy: policy, notes: notes, entryForm: .config([]), warnings: warnings)
    }

    /// A DEX entry that is not what its format says, at the offset at fault.
    private static func unreadable(_ apk: APKArchive, _ entry: String, _ error: ArtifactFormatError)
        -> ConfigurationError
    {
        ConfigurationError(file: apk.label(entry), message: "not a DEX file pinctl can read: " + error.description)
    }

    /// `classes.dex`, `classes2.dex` …, in the order ART loads them.
    static func dexEntries(_ entries: [String]) -> [String] {
        let numbered = entries.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("classes"), name.hasSuffix(".dex") else { return nil }
            let middle = name.dropFirst("classes".count).dropLast(".dex".count)
            if middle.isEmpty { return (1, name) }
            guard let number = Int(middle), number >= 2, String(number) == middle else { return nil }
            return (number, name)
        }
        return numbered.sorted { $0.0 < $1.0 }.map(\.1)
    }

    static let pinPrefixes = ["sha256/", "sha1/"]
    /// The strings worth decoding of a DEX's many: pins, OkHttp's builder type and messages.
    static let candidatePrefixes = (pinPrefixes + [builder] + okhttpMessages).map { Array($0.utf8) }

    /// `sha256/…` or `sha1/…` with something after the prefix: a string OkHttp would read as a pin.
    static func isPinString(_ text: String) -> Bool {
        (text.hasPrefix("sha256/") && text.utf8.count > 7) || (text.hasPrefix("sha1/") && text.utf8.count > 5)
    }
}
