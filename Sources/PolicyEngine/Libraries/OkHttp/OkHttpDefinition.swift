import FoundationEssentials
import OpenSSLWrapper
import TextSyntax

extension Library {
    /// OkHttp's `CertificatePinner` (Android, JVM).
    public static let okhttp = Library(name: "okhttp", displayName: "OkHttp")
}

extension NativeExport.Format {
    /// OkHttp: a Kotlin `CertificatePinner.Builder()` snippet.
    public static let okhttpKotlin = Self("kotlin") { policy, losses throws(ExportError) in
        .file(try OkHttpSourceWriter.write(policy, form: .kotlin, losses: &losses))
    }
    /// OkHttp: a Java snippet.
    public static let okhttpJava = Self("java") { policy, losses throws(ExportError) in
        .file(try OkHttpSourceWriter.write(policy, form: .java, losses: &losses))
    }
    /// OkHttp: `pattern sha256/…` lines.
    public static let okhttpText = Self("text") { policy, losses throws(ExportError) in
        .file(try OkHttpSourceWriter.write(policy, form: .text, losses: &losses))
    }
}

extension LibraryDefinition {
    /// OkHttp: inline `{pins: {PATTERN: [pins]}}`, `CertificatePinner` calls in Kotlin or Java or a pin list as
    /// shipped, `--pattern` on the command line.
    static let okhttp = LibraryDefinition(
        library: .okhttp,
        policy: OkHttpPolicy.self,
        availability: [],
        inline: .decoder { value, context throws(ConfigurationError) in try OkHttpDefinition.inline(value, context) },
        configSettings: [
            ConfigSetting(key: "variant") { value, settings throws(ConfigurationError) in
                settings.variant = try value.string()
            },
            ConfigSetting(key: "defines") { value, settings throws(ConfigurationError) in
                var defines: [String: String] = [:]
                for (name, member) in try value.anyMapping() {
                    guard OkHttpDefinition.isDefinableName(name) else {
                        throw member.error("defines: '\(name)' is not a name a source can use (NAME, Owner.NAME)")
                    }
                    let value = try member.string()
                    guard !value.contains("\n") else { throw member.error("defines: \(name)'s value spans lines") }
                    defines[name] = value
                }
                settings.defines = defines
            },
        ],
        readNative: { path, settings throws(ConfigurationError) in
            let (policy, notes) = try OkHttpSourceReader.read(path, hosts: settings.hosts, variant: settings.variant,
                                                              defines: settings.defines)
            return .init(policy: policy, notes: notes, entryForm: .inline { OkHttpDefinition.entry(policy) })
        },
        readBuild: { build, settings throws(ConfigurationError) in
            guard let apk = build.apk else { return nil }
            return try OkHttpBuildReading.read(apk, hosts: settings.hosts)
        },
        exportForms: [.okhttpKotlin, .okhttpJava, .okhttpText],
        flags: [LibraryFlag("--pattern", .option(valueName: "pattern"), help: "the CertificatePinner pattern the pins "
            + "are added under, a host, *.example.com or **.example.com (default: the host checked).")],
        flagsProblem: nil,
        importFlags: [
            ImportFlag(flag: LibraryFlag("--variant", .option(valueName: "variant"), help: "the build type or "
                + "flavour whose BuildConfig fields hold a source's pins, when builds differ.")
            ) { value, settings throws(InputError) in settings.variant = value },
            ImportFlag(flag: LibraryFlag("--define", .repeatable(valueName: "name=value"), help: "the value of a name "
                + "a source uses, as NAME=VALUE (PIN, BuildConfig.PIN); repeatable.")
            ) { define, settings throws(InputError) in
                let name = String(define.prefix { $0 != "=" })
                guard define.contains("="), OkHttpDefinition.isDefinableName(name), !define.contains("\n") else {
                    throw InputError("--define \(define): expected NAME=VALUE, NAME as the source writes it (PIN, "
                        + "BuildConfig.PIN)")
                }
                // The last value given for a name wins.
                settings.defines[name] = String(define.dropFirst(name.count + 1))
            },
        ],
        policyFromFlags: { flags throws(InputError) in try OkHttpDefinition.policy(flags) }
    )
}

/// How OkHttp's policy is written in a policy file and given on the command line.
public enum OkHttpDefinition {
    /// `NAME` or `Owner.NAME`: dotted identifiers, as a source names a constant or `BuildConfig.NAME`.
    public static func isDefinableName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else {
                return false
            }
            return part.unicodeScalars.allSatisfy {
                $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
            }
        }
    }

    /// `{pins: {PATTERN: [pins]}}`.
    static func inline(_ value: YAMLValue, _ context: LibraryDefinition.InlineContext) throws(ConfigurationError) -> OkHttpPolicy {
        var entries: [OkHttpPolicy.Entry] = []
        for (key, member) in try value.mapping(allowed: ["pins"]) where key == "pins" {
            for (pattern, pins) in try member.anyMapping() {
                let parsed: OkHttpPattern
                do {
                    parsed = try OkHttpPattern(pattern)
                } catch {
                    throw pins.error("the pattern \(pattern): \(error.explanation)")
                }
                if let problem = PolicyHostName.syntaxError(parsed.canonical, as: .okhttpPattern) {
                    throw pins.error("the pattern \(pattern): \(problem)")
                }
                for pinValue in try pins.sequenceOrScalar() {
                    do {
                        entries.append(.init(pattern: parsed, pin: try OkHttpPin.parse(try pinValue.string(),
                                                                                       source: pinValue.pinSource)))
                    } catch let refusal as OkHttpPattern.Refusal {
                        throw pinValue.error("the pin: \(refusal.explanation)")
                    } catch let error as ConfigurationError {
                        throw error
                    } catch {
                        throw pinValue.error("\(error)")
                    }
                }
            }
        }
        return OkHttpPolicy(entries: entries, hosts: context.hosts)
    }

    /// The inline form of `policy`: patterns in the order first added, each with its pins.
    static func entry(_ policy: OkHttpPolicy) -> YAMLEmitter.Node {
        // Found by a dictionary, as a file may add 100k.
        var patterns: [(String, [String])] = []
        var indexOfPattern: [String: Int] = [:]
        for entry in policy.entries {
            if let index = indexOfPattern[entry.pattern.canonical] {
                patterns[index].1.append(entry.pin.writtenText(in: .okhttp) ?? entry.pin.text)
            } else {
                indexOfPattern[entry.pattern.canonical] = patterns.count
                patterns.append((entry.pattern.canonical, [entry.pin.writtenText(in: .okhttp) ?? entry.pin.text]))
            }
        }
        return .mapping([("pins", .mapping(patterns.map { ($0.0, AppEntryWriter.list($0.1)) }))])
    }

    /// The pins under `--pattern`, or under the host checked.
    static func policy(_ flags: PolicyFlags) throws(InputError) -> LibraryDefinition.FlagPolicy {
        let pins = try self.pins(flags)
        let pattern = flags.value("--pattern")
        return .init { domain throws(InputError) in
            // OkHttp matches patterns against `HttpUrl.host`: a host HttpUrl refuses is a request the app cannot make.
            if let domain, let error = OkHttpPattern.hostError(domain) { throw InputError("host \(domain): \(error)") }
            guard let text = pattern ?? domain else { return OkHttpPolicy(entries: []) }
            let parsed: OkHttpPattern
            do throws(OkHttpPattern.Refusal) {
                parsed = try OkHttpPattern(text)
            } catch {
                throw InputError("\(pattern == nil ? "host" : "--pattern") \(text): \(error.explanation)")
            }
            if let pattern, let problem = PolicyHostName.syntaxError(parsed.canonical, as: .okhttpPattern) {
                throw InputError("--pattern \(pattern): \(problem)")
            }
            return OkHttpPolicy(entries: pins.map { OkHttpPolicy.Entry(pattern: parsed, pin: $0) })
        }
    }

    /// OkHttp reads `sha1/` pins too, and as leniently as OkHttp does.
    private static func pins(_ flags: PolicyFlags) throws(InputError) -> [PublicKeyPin] {
        var pins: [PublicKeyPin] = []
        for path in flags.pinPaths {
            do {
                let loaded = try PinLoader.load(path: path)
                pins += loaded.certificates.map(\.keyPin) + loaded.keyHashes
            } catch {
                throw InputError("--pins \(error.description)")
            }
        }
        for (index, value) in flags.inlinePins.enumerated() {
            do {
                pins.append(try OkHttpPin.parse(value, source: flags.inlinePinSource(index)))
            } catch {
                let message = "--pin \(value): OkHttp refuses it: \(error.message)"
                throw InputError(UntrustedText.redacting(value, in: message))
            }
        }
        return pins
    }
}

extension NativeConfiguration.Settings {
    /// okhttp: the build type or flavour whose `BuildConfig` values a source's pins are read from.
    public var variant: String? {
        get { values["variant"] }
        set { values["variant"] = newValue }
    }

    /// okhttp: values for names the source uses (`--define`, `defines:`), kept as `NAME=VALUE` lines.
    public var defines: [String: String] {
        get {
            var defines: [String: String] = [:]
            for line in (values["defines"] ?? "").split(separator: "\n") {
                guard let equals = line.firstIndex(of: "=") else { continue }
                defines[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            return defines
        }
        set {
            values["defines"] = newValue.isEmpty ? nil
                : newValue.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\n")
        }
    }
}
