/// The string constants a source file declares, so that `add(HOST, PIN_A, "sha256/" + HASH, "sha256/$HASH")` is read
/// when every name it uses holds a value written in the same file (#19: teams keep pins in constants).
///
/// A constant is Kotlin's `const val NAME = …` or `val NAME = …` (at the top level, in an object or a companion
/// object, `: String` or not), or Java's `final String NAME = …;` (`static`, `private` or not), whose value is string
/// literals and constants joined by `+`; a Kotlin template `$NAME` or `${Owner.NAME}` names one (any other `${…}`
/// computes its value). A name is followed only when the file declares it exactly once and never assigns it again: a
/// `var`, a Java field without `final`, or one name declared twice (two functions' locals, a shadowing parameter)
/// leaves it unresolved, and reading stops there rather than guess which value the app uses. `Owner.NAME` is
/// followed when `Owner` is an object, class or interface of this file; `BuildConfig.NAME` is read from the module's
/// build file (`GradleBuildConfig`); a value the user defines (`defines:`, `--define`) comes before either.
///
/// Each constant is resolved once and its value kept (`OkHttpConstantValues`): `B = A + A`, `C = B + B`, … doubles
/// the work per line when every use resolves again (#32: 608 bytes took 38 s and 1.2 GB). A value longer than any
/// host or pin, constants nested deeper than any real file, or more work than any real file takes is refused, naming
/// the constant and its line: never dropped, never cut short.
struct OkHttpConstants {
    /// A resolved value, and the constants it came from (`PIN_A (line 3)`), for the reader's notes.
    struct Value {
        let text: String
        let sources: [String]
    }

    private let tokens: [OkHttpSourceToken]
    /// The source file, for refusals.
    private let path: String
    /// The module's build file, for `BuildConfig.NAME`; nil when the file names no BuildConfig or none was found.
    private let buildConfig: GradleBuildConfig?
    /// The build type or flavour whose BuildConfig values are read; nil: every variant must agree.
    private let variant: String?
    /// Values the user gives for names (`--define`, `defines:`): `PIN` or `BuildConfig.PIN` as the source writes it.
    /// They come first: they say what the app holds where the file does not, or differently.
    private let defines: [String: String]
    private let declared: OkHttpConstantDeclarations
    /// How deep constants may refer to constants: far beyond any real file, and no cycle loops.
    private static let maximumDepth = 16
    private let resolved = OkHttpConstantValues()

    init(_ tokens: [OkHttpSourceToken], path: String, buildConfig: GradleBuildConfig? = nil, variant: String? = nil,
         defines: [String: String] = [:]) {
        self.tokens = tokens
        self.path = path
        self.buildConfig = buildConfig
        self.variant = variant
        self.defines = defines
        declared = OkHttpConstantDeclarations(tokens)
    }

    /// The value of the argument `range` (`NAME`, `Owner.NAME`, `"…" + NAME`), or nil when a part of it is not a
    /// literal or a constant declared once in this file. Throws when a bound is passed (`OkHttpConstantValues`).
    func value(of range: Range<Int>) throws(ConfigurationError) -> Value? {
        var visiting: Set<String> = []
        return try evaluate(range, depth: 0, visiting: &visiting, owner: nil)
    }

    /// `owner`: the constant whose value `range` is, nil for an argument; refusals name it.
    private func evaluate(_ range: Range<Int>, depth: Int, visiting: inout Set<String>,
                          owner: (name: String, line: Int)?) throws(ConfigurationError) -> Value?
    {
        guard !range.isEmpty else { return nil }
        var text = OkHttpConstantValues.Builder(resolved, owner: (owner?.name,
                                                                  owner?.line ?? tokens[range.lowerBound].line, path))
        var index = range.lowerBound
        while index < range.upperBound {
            if case .string(let value, let dynamic) = tokens[index].kind {
                if dynamic == nil {
                    try text.append(value)
                } else {
                    // A template names a constant (`"sha256/$HASH"`): its value goes where the template stood.
                    let templates = tokens[index].templates
                    guard !templates.isEmpty else { return nil }
                    let bytes = Array(value.utf8)
                    var from = 0
                    for template in templates {
                        guard let name = template.name,
                              let inner = try constant(name.split(separator: ".").map(String.init), depth: depth,
                                                       visiting: &visiting)
                        else { return nil }
                        try text.append(String(decoding: bytes[from..<template.offset], as: UTF8.self))
                        try text.append(inner)
                        from = template.offset
                    }
                    try text.append(String(decoding: bytes[from...], as: UTF8.self))
                }
                index += 1
            } else if let (names, end) = reference(at: index, before: range.upperBound) {
                guard let inner = try constant(names, depth: depth, visiting: &visiting) else { return nil }
                try text.append(inner)
                index = end
            } else {
                return nil
            }
            guard index < range.upperBound else { break }
            guard tokens[index].isPunctuation("+") else { return nil }
            index += 1
            guard index < range.upperBound else { return nil }
        }
        return text.value
    }

    /// The value of the constant `names` (`NAME`, `Owner.NAME`, `Owner.Companion.NAME`): declared once in this file,
    /// never reassigned, its owner (if named) declared here too.
    private func constant(_ names: [String], depth: Int, visiting: inout Set<String>) throws(ConfigurationError)
        -> Value?
    {
        guard let name = names.last else { return nil }
        for written in [names.joined(separator: "."), names.suffix(2).joined(separator: ".")] {
            if let value = defines[written] { return Value(text: value, sources: ["\(written) (defined)"]) }
        }
        if names.count >= 2, names[names.count - 2] == "BuildConfig" {
            guard let buildConfig, case .success(let field) = buildConfig.value(of: name, variant: variant) else {
                return nil
            }
            return Value(text: field.value, sources: ["BuildConfig.\(name) (\(buildConfig.path):\(field.line))"])
        }
        guard let declaration = declaration(of: names), !declaration.isArray else { return nil }
        // Once resolved, a constant's value is kept: every later use costs its length, not its resolution again.
        // A name left unresolved by a cycle is kept unresolved too: every constant on a cycle needs its own value.
        if let known = resolved.values[name] { return known }
        guard !visiting.contains(name) else { return nil }
        let line = declaration.line
        guard depth <= Self.maximumDepth else {
            throw ConfigurationError(file: path, line: line, message: "the constant "
                + "\(OkHttpConstantValues.shown(name)) is reached through a chain of more than \(Self.maximumDepth) "
                + "constants, each made of the next: pinctl follows no longer chains")
        }
        visiting.insert(name)
        defer { visiting.remove(name) }
        let value = try evaluate(declaration.value, depth: depth + 1, visiting: &visiting, owner: (name, line))
            .map { Value(text: $0.text, sources: ["\(name) (line \(line))"] + $0.sources) }
        resolved.values.updateValue(value, forKey: name)
        return value
    }

    /// The value of the array constant `range` names (`PINS`, `Owner.PINS`): the tokens of `arrayOf(…)`, `listOf(…)`
    /// or Java's `{…}` / `new String[] {…}`, and where it is declared; nil when `range` is not exactly such a name.
    func array(named range: Range<Int>) -> (value: Range<Int>, source: String)? {
        guard !range.isEmpty, let (names, end) = reference(at: range.lowerBound, before: range.upperBound),
              end == range.upperBound, let name = names.last,
              let declaration = declaration(of: names), declaration.isArray
        else { return nil }
        return (declaration.value, "\(name) (line \(declaration.line))")
    }

    /// The one declaration of the name `names` ends with, never reassigned, its owner (if named) declared here too.
    private func declaration(of names: [String]) -> OkHttpConstantDeclarations.Declaration? {
        let qualifiers = names.dropLast()
        guard let name = names.last, qualifiers.allSatisfy({ declared.owners.contains($0) || $0 == "Companion" }),
              qualifiers.first.map(declared.owners.contains) ?? true,
              let all = declared.byName[name], all.count == 1, !all[0].reassignable
        else { return nil }
        return all[0]
    }

    /// Why the first `BuildConfig.NAME` in `range` has no value, for the reader's message; nil when none is named.
    func buildConfigProblem(in range: Range<Int>) -> String? {
        for index in range where tokens[index].identifier == "BuildConfig" && tokens[safe: index + 1]?
            .isPunctuation(".") == true {
            guard let name = tokens[safe: index + 2]?.identifier else { continue }
            guard let buildConfig else {
                return "no build.gradle or build.gradle.kts in the directories above this file declares it"
            }
            if case .failure(let problem) = buildConfig.value(of: name, variant: variant) { return problem.reason }
        }
        return nil
    }

    /// `NAME`, `Owner.NAME` or `Owner.Companion.NAME` at `index`: its names and the index after it.
    private func reference(at index: Int, before end: Int) -> ([String], Int)? {
        guard let first = tokens[index].identifier else { return nil }
        var names = [first]
        var next = index + 1
        while next + 1 < end, tokens[next].isPunctuation("."), let name = tokens[next + 1].identifier {
            names.append(name)
            next += 2
        }
        return (names, next)
    }
}
