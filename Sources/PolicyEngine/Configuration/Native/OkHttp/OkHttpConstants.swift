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
struct OkHttpConstants {
    /// One declaration: the tokens of its value and where the name is declared.
    private struct Declaration {
        let value: Range<Int>
        let line: Int
        let reassignable: Bool
        /// An array or list of strings (`arrayOf(…)`, `listOf(…)`, Java's `String[] NAME = {…}`), spread into `add`.
        var isArray = false
    }

    /// A resolved value, and the constants it came from (`PIN_A (line 3)`), for the reader's notes.
    struct Value {
        let text: String
        let sources: [String]
    }

    private let tokens: [OkHttpSourceToken]
    /// The module's build file, for `BuildConfig.NAME`; nil when the file names no BuildConfig or none was found.
    private let buildConfig: GradleBuildConfig?
    /// The build type or flavour whose BuildConfig values are read; nil: every variant must agree.
    private let variant: String?
    /// Values the user gives for names (`--define`, `defines:`): `PIN` or `BuildConfig.PIN` as the source writes it.
    /// They come first: they say what the app holds where the file does not, or differently.
    private let defines: [String: String]
    private var declarations: [String: [Declaration]] = [:]
    /// Objects, classes and interfaces this file declares: owners whose constants are in it.
    private var owners: Set<String> = []
    /// How deep constants may refer to constants: far beyond any real file, and no cycle loops.
    private static let maximumDepth = 16

    init(_ tokens: [OkHttpSourceToken], buildConfig: GradleBuildConfig? = nil, variant: String? = nil,
         defines: [String: String] = [:]) {
        self.tokens = tokens
        self.buildConfig = buildConfig
        self.variant = variant
        self.defines = defines
        for index in tokens.indices {
            guard let word = tokens[index].identifier else { continue }
            switch word {
            case "object", "class", "interface":
                if let name = tokens[safe: index + 1]?.identifier { owners.insert(name) }
            case "val", "var":
                declareKotlin(at: index, reassignable: word == "var")
            case "String":
                declareJava(at: index)
            default:
                break
            }
        }
        for binding in OkHttpParameterNames.find(in: tokens) {
            declare(binding.name, value: 0..<0, line: binding.line, reassignable: true)
        }
    }

    /// The value of the argument `range` (`NAME`, `Owner.NAME`, `"…" + NAME`), or nil when a part of it is not a
    /// literal or a constant declared once in this file.
    func value(of range: Range<Int>) -> Value? {
        var visiting: Set<String> = []
        return evaluate(range, depth: 0, visiting: &visiting)
    }

    private func evaluate(_ range: Range<Int>, depth: Int, visiting: inout Set<String>) -> Value? {
        guard depth <= Self.maximumDepth, !range.isEmpty else { return nil }
        var text = ""
        var sources: [String] = []
        var index = range.lowerBound
        while index < range.upperBound {
            if case .string(let value, let dynamic) = tokens[index].kind {
                if dynamic == nil {
                    text += value
                } else {
                    // A template names a constant (`"sha256/$HASH"`): its value goes where the template stood.
                    let templates = tokens[index].templates
                    guard !templates.isEmpty else { return nil }
                    var bytes = Array(value.utf8)
                    for template in templates.reversed() {
                        guard let name = template.name,
                              let inner = constant(name.split(separator: ".").map(String.init), depth: depth,
                                                   visiting: &visiting)
                        else { return nil }
                        bytes.insert(contentsOf: Array(inner.text.utf8), at: template.offset)
                        sources += inner.sources
                    }
                    text += String(decoding: bytes, as: UTF8.self)
                }
                index += 1
            } else if let (names, end) = reference(at: index, before: range.upperBound) {
                guard let inner = constant(names, depth: depth, visiting: &visiting) else { return nil }
                text += inner.text
                sources += inner.sources
                index = end
            } else {
                return nil
            }
            guard index < range.upperBound else { break }
            guard tokens[index].isPunctuation("+") else { return nil }
            index += 1
            guard index < range.upperBound else { return nil }
        }
        return Value(text: text, sources: sources)
    }

    /// The value of the constant `names` (`NAME`, `Owner.NAME`, `Owner.Companion.NAME`): declared once in this file,
    /// never reassigned, its owner (if named) declared here too.
    private func constant(_ names: [String], depth: Int, visiting: inout Set<String>) -> Value? {
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
        let qualifiers = names.dropLast()
        guard qualifiers.allSatisfy({ owners.contains($0) || $0 == "Companion" }),
              qualifiers.first.map(owners.contains) ?? true,
              let declared = declarations[name], declared.count == 1, !declared[0].reassignable,
              !declared[0].isArray, !visiting.contains(name)
        else { return nil }
        visiting.insert(name)
        defer { visiting.remove(name) }
        guard let inner = evaluate(declared[0].value, depth: depth + 1, visiting: &visiting) else { return nil }
        return Value(text: inner.text, sources: ["\(name) (line \(declared[0].line))"] + inner.sources)
    }

    /// The value of the array constant `range` names (`PINS`, `Owner.PINS`): the tokens of `arrayOf(…)`, `listOf(…)`
    /// or Java's `{…}` / `new String[] {…}`, and where it is declared; nil when `range` is not exactly such a name.
    func array(named range: Range<Int>) -> (value: Range<Int>, source: String)? {
        guard !range.isEmpty, let (names, end) = reference(at: range.lowerBound, before: range.upperBound),
              end == range.upperBound, let name = names.last else { return nil }
        let qualifiers = names.dropLast()
        guard qualifiers.allSatisfy({ owners.contains($0) || $0 == "Companion" }),
              qualifiers.first.map(owners.contains) ?? true,
              let declared = declarations[name], declared.count == 1, !declared[0].reassignable, declared[0].isArray
        else { return nil }
        return (declared[0].value, "\(name) (line \(declared[0].line))")
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

    /// `val NAME [: String] = VALUE`, `const` or not; `var` is recorded as reassignable. `val NAME [: Array<String>]
    /// = arrayOf(…)` and `listOf(…)` are arrays.
    private mutating func declareKotlin(at index: Int, reassignable: Bool) {
        guard let name = tokens[safe: index + 1]?.identifier else { return }
        var equals = index + 2
        if tokens[safe: equals]?.isPunctuation(":") == true {
            if tokens[safe: equals + 1]?.identifier == "String" {
                equals += 2
            } else if ["Array", "List"].contains(tokens[safe: equals + 1]?.identifier ?? ""),
                      tokens[safe: equals + 2]?.isPunctuation("<") == true,
                      tokens[safe: equals + 3]?.identifier == "String",
                      tokens[safe: equals + 4]?.isPunctuation(">") == true {
                equals += 5
            } else {
                return
            }
        }
        guard tokens[safe: equals]?.isPunctuation("=") == true, tokens[safe: equals + 1]?.isPunctuation("=") != true
        else { return }
        let line = tokens[index].line
        if let value = arrayValue(from: equals + 1) {
            declare(name, value: value, line: line, reassignable: reassignable, isArray: true)
        } else {
            declare(name, value: expression(from: equals + 1, line: line), line: line, reassignable: reassignable)
        }
    }

    /// `arrayOf(…)`, `arrayOf<String>(…)`, `listOf(…)`, `new String[] {…}` or `{…}` from `start`: its tokens.
    private func arrayValue(from start: Int) -> Range<Int>? {
        var open = start
        switch tokens[safe: start]?.identifier {
        case "arrayOf", "listOf":
            open += 1
            if tokens[safe: open]?.isPunctuation("<") == true { open += 3 }
            guard tokens[safe: open]?.isPunctuation("(") == true else { return nil }
        case "new":
            open += 4
            guard tokens[safe: start + 1]?.identifier == "String", tokens[safe: open]?.isPunctuation("{") == true else {
                return nil
            }
        default:
            guard tokens[safe: start]?.isPunctuation("{") == true else { return nil }
        }
        guard let close = OkHttpBuilderCalls.closing(open, in: tokens) else { return nil }
        return start..<(close + 1)
    }

    /// `[modifiers] String NAME = VALUE;`: constant only with `final` among the modifiers before `String`. A
    /// parameter `String NAME` (before `,` or `)`) holds no value the file knows.
    private mutating func declareJava(at type: Int) {
        // `String[] NAME = {…}` is an array of pins; a parameter `String[] NAME` holds none the file knows.
        let isArray = tokens[safe: type + 1]?.isPunctuation("[") == true
            && tokens[safe: type + 2]?.isPunctuation("]") == true
        let at = isArray ? type + 3 : type + 1
        guard let name = tokens[safe: at]?.identifier else { return }
        let line = tokens[at].line
        if tokens[safe: at + 1]?.isPunctuation(",") == true || tokens[safe: at + 1]?.isPunctuation(")") == true {
            declare(name, value: at..<at, line: line, reassignable: true)
            return
        }
        guard tokens[safe: at + 1]?.isPunctuation("=") == true, tokens[safe: at + 2]?.isPunctuation("=") != true
        else { return }
        var modifier = type - 1
        var final = false
        while let word = tokens[safe: modifier]?.identifier,
              ["final", "static", "private", "public", "protected"].contains(word) {
            final = final || word == "final"
            modifier -= 1
        }
        if !isArray {
            declare(name, value: expression(from: at + 2, line: line), line: line, reassignable: !final)
        } else if let value = arrayValue(from: at + 2) {
            declare(name, value: value, line: line, reassignable: !final, isArray: true)
        } else {
            declare(name, value: at..<at, line: line, reassignable: true)
        }
    }

    private mutating func declare(_ name: String, value: Range<Int>, line: Int, reassignable: Bool,
                                  isArray: Bool = false) {
        declarations[name, default: []].append(Declaration(value: value, line: line, reassignable: reassignable,
                                                           isArray: isArray))
    }

    /// The tokens of a declaration's value from `start`: literals and dotted names joined by `+`, ending at `;`, at a
    /// token on a later line than the last one that needs a continuation, or at anything else (whose value is then
    /// not a constant: evaluation fails on the token that stopped it).
    private func expression(from start: Int, line: Int) -> Range<Int> {
        var index = start
        var expectingOperand = true
        while let token = tokens[safe: index] {
            if expectingOperand {
                if case .string = token.kind {
                    index += 1
                } else if token.identifier != nil {
                    index += 1
                    while tokens[safe: index]?.isPunctuation(".") == true, tokens[safe: index + 1]?.identifier != nil {
                        index += 2
                    }
                } else {
                    // Not a constant's value (a call, a number): kept, so that evaluating it fails.
                    return start..<(index + 1)
                }
                expectingOperand = false
            } else if token.isPunctuation("+") {
                index += 1
                expectingOperand = true
            } else if token.isPunctuation("(") || token.isPunctuation("[") {
                // A call or an index: the value is computed.
                return start..<(index + 1)
            } else {
                break
            }
        }
        return start..<index
    }
}
