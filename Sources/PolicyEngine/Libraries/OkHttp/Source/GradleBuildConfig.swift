import FileAccess
import TextSyntax

/// The `buildConfigField("String", "NAME", "\"…\"")` lines of an Android module's `build.gradle(.kts)`: the values
/// `BuildConfig.NAME` holds in the app, so that `add(HOST, BuildConfig.PIN)` is read (#19).
///
/// The module is the nearest directory above the source file that holds `build.gradle.kts` or `build.gradle`. A field
/// in `defaultConfig { }` holds for every variant; one in a build type (`buildTypes { release { } }`) or a product
/// flavour (`productFlavors { create("prod") { } }`) overrides it there. Without a variant, a name whose values differ
/// between blocks is not resolved: which one the app holds depends on the build, and guessing would judge the wrong
/// app. Values are Java string literals written inside a Gradle string (`"\"sha256/…\""`); anything else (a
/// concatenation, a Groovy `"$x"`, a property) is not resolved.
struct GradleBuildConfig {
    /// One field: where it is declared and the Java literal's value, nil when it is not one literal.
    struct Field {
        let block: String?
        let value: String?
        let line: Int
    }

    /// The file read, for messages.
    let path: String
    private(set) var fields: [String: [Field]] = [:]
    /// The line of a field whose name is computed (`"${prefix}_PIN"`): it may be any field, so none is known.
    private(set) var unnamedLine: Int?

    /// The build file of the module holding `source`, nil when no directory above it has one.
    static func nearest(to source: String) throws(ConfigurationError) -> GradleBuildConfig? {
        var directory = Path.parent(of: source)
        for _ in 0..<32 {
            for name in ["build.gradle.kts", "build.gradle"] {
                let candidate = Path.join(directory, name)
                if (try? FileSystem.kind(of: candidate)) != nil {
                    return try GradleBuildConfig(path: candidate, bytes: ConfigurationError.contents(of: candidate))
                }
            }
            // A relative path goes on above the working directory ("..", "../.."): the module's build file may be
            // there when pinctl runs inside the source folder. The walk ends at the file system's root.
            let parent = directory == "." ? ".." : Path.lastComponent(of: directory) == ".."
                ? Path.join(directory, "..") : Path.parent(of: directory)
            guard parent != directory, !FileSystem.sameFile(directory, "/") else { return nil }
            directory = parent
        }
        return nil
    }

    init(path: String, bytes: [UInt8]) throws(ConfigurationError) {
        self.path = path
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw ConfigurationError(file: path, line: line, message: UntrustedText.nulByteReason)
        }
        let tokens = try GradleTokens(bytes, path: path)
        var blocks: [String] = []
        var opened: [Bool] = []
        var index = 0
        while index < tokens.items.count {
            let token = tokens.items[index]
            switch token.kind {
            case .open:
                // `name {`, `name("x") {` (create, getByName, register, maybeCreate, named): the block's name.
                if let name = tokens.blockName(endingBefore: index) {
                    blocks.append(name)
                    opened.append(true)
                } else {
                    opened.append(false)
                }
            case .close:
                if opened.popLast() == true { blocks.removeLast() }
            case .word("buildConfigField"):
                let (type, name, value, next) = tokens.fieldArguments(after: index)
                let literal = type == "String" ? value.flatMap(Self.javaStringLiteral) : nil
                if let name {
                    fields[name, default: []].append(Field(block: Self.variantBlock(blocks), value: literal,
                                                           line: token.line))
                } else {
                    unnamedLine = unnamedLine ?? token.line
                }
                index = max(next, index + 1)
                continue
            default:
                break
            }
            index += 1
        }
    }

    /// The value of `BuildConfig.name` for `variant` (a build type or flavour; nil: every variant must agree), or
    /// why it cannot be known.
    func value(of name: String, variant: String?) -> Result<(value: String, line: Int), Unresolved> {
        if let unnamedLine {
            return .failure(Unresolved("\(path):\(unnamedLine): a buildConfigField whose name is computed may be "
                + "\"\(name)\""))
        }
        guard let declared = fields[name], !declared.isEmpty else {
            return .failure(Unresolved("\(path) declares no buildConfigField \"\(name)\""))
        }
        if let elsewhere = declared.first(where: { $0.block == "?" }) {
            return .failure(Unresolved("\(path):\(elsewhere.line): \"\(name)\" is set outside defaultConfig, "
                + "buildTypes and productFlavors, so which builds hold it is not known"))
        }
        var candidates = declared.filter { $0.block == nil }
        if let variant {
            let specific = declared.filter { $0.block == variant }
            if !specific.isEmpty { candidates = specific }
        } else {
            candidates = declared
        }
        guard let first = candidates.first else {
            return .failure(Unresolved("\(path) declares \"\(name)\" only for other variants than \(variant ?? "")"))
        }
        guard candidates.allSatisfy({ $0.value != nil }) else {
            return .failure(Unresolved("\(path):\(candidates.first { $0.value == nil }?.line ?? first.line): "
                + "\"\(name)\" is not a String field holding one Java string literal"))
        }
        let values = Set(candidates.compactMap(\.value))
        guard values.count == 1, let value = first.value else {
            let blocks = candidates.map { $0.block ?? "defaultConfig" }
            return .failure(Unresolved("\(path): \"\(name)\" differs between " + blocks.joined(separator: ", ")
                + ": give --variant to say which build is checked"))
        }
        return .success((value, first.line))
    }

    struct Unresolved: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The build type or flavour a field belongs to: the block inside `buildTypes`/`productFlavors`; nil for
    /// `defaultConfig`; `"?"` for any other place (`buildTypes.all { }`, a variant filter, a loop).
    private static func variantBlock(_ blocks: [String]) -> String? {
        for (index, name) in blocks.enumerated() where name == "buildTypes" || name == "productFlavors" {
            return blocks.indices.contains(index + 1) ? blocks[index + 1] : "?"
        }
        return blocks.contains("defaultConfig") ? nil : "?"
    }

    /// The value of a Java string literal `"…"` filling all of `text`, its escapes read; nil for anything else.
    static func javaStringLiteral(_ text: String) -> String? {
        var scalars = Substring(text).unicodeScalars[...]
        guard scalars.first == "\"", scalars.last == "\"", scalars.count >= 2 else { return nil }
        scalars = scalars.dropFirst().dropLast()
        var value = String.UnicodeScalarView()
        var escaped = false
        for scalar in scalars {
            if escaped {
                switch scalar {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\"", "\\", "'": value.append(scalar)
                default: return nil
                }
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                return nil
            } else {
                value.append(scalar)
            }
        }
        return escaped ? nil : String(value)
    }
}

