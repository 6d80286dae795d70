/// The arguments of one `add(pattern: String, vararg pins: String)` call, each a string literal at its place.
///
/// Read: a literal, or literals and names joined by `+` whose values `OkHttpConstants` knows (this file's constants,
/// `BuildConfig` fields, defines); Kotlin's named arguments (`pattern =`, `pins =`), trailing comma and spread of an
/// array of those (`*arrayOf("…")`, `*arrayOf<String>(…)`, `*listOf(…).toTypedArray()`); Java's `new String[] {"…"}`.
/// Anything else (a variable, a parameter, a call, a template computing its value) is unresolved: its value is not
/// known from the files, and guessing it would judge an app by pins it may not have, so reading stops there.
struct OkHttpAddArguments {
    struct Literal: Sendable {
        let value: String
        let line: Int
        let column: Int
        /// The constants the value was read from (`PIN_A (line 3)`), empty for a literal.
        var constants: [String] = []
    }

    let pattern: Literal
    let pins: [Literal]

    /// The arguments of the call whose `add` token is at `index` (its `(` follows).
    static func read(callAt index: Int, tokens: [OkHttpSourceToken], constants: OkHttpConstants, source: [UInt8],
                     path: String) throws(ConfigurationError) -> OkHttpAddArguments
    {
        let reader = Reader(tokens: tokens, constants: constants, source: source, path: path)
        let open = index + 1
        guard let close = OkHttpBuilderCalls.closing(open, in: tokens) else {
            throw reader.error(at: open, "this call to add is never closed")
        }
        var pattern: Literal?
        var pins: [Literal] = []
        // Kotlin lets a named argument stand in its own place and positional ones follow (`add(pattern = "…",
        // "sha256/…")`): a positional argument's parameter is the one of its place.
        for (position, argument) in try reader.split((open + 1)..<close).enumerated() {
            var value = argument
            var name: String?
            if let label = tokens[safe: argument.lowerBound]?.identifier, argument.count > 2,
               tokens[argument.lowerBound + 1].isPunctuation("="), !tokens[argument.lowerBound + 2].isPunctuation("=") {
                name = label
                value = (argument.lowerBound + 2)..<argument.upperBound
            }
            switch name ?? (position == 0 ? "pattern" : "pins") {
            case "pattern" where pattern == nil:
                pattern = try reader.literal(value, role: "pattern")
            case "pins":
                pins += try reader.pins(value)
            default:
                let problem = name == nil || name == "pattern"
                    ? "add(…) is given its pattern twice" : "add(…) has no argument named \(name ?? "")"
                throw reader.error(at: argument.lowerBound,
                                   problem + ": it takes (pattern: String, vararg pins: String)")
            }
        }
        guard let pattern else { throw reader.error(at: index, "this add(…) gives no pattern") }
        return OkHttpAddArguments(pattern: pattern, pins: pins)
    }

    private struct Reader {
        let tokens: [OkHttpSourceToken]
        let constants: OkHttpConstants
        let source: [UInt8]
        let path: String

        func error(at index: Int, _ message: String) -> ConfigurationError {
            let token = tokens[safe: index] ?? tokens[tokens.count - 1]
            return ConfigurationError(file: path, line: token.line, column: token.column, message: message)
        }

        private func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            tokens[safe: index]?.isPunctuation(character) ?? false
        }

        /// The top-level comma-separated parts of `range`; a trailing comma ends the list (Kotlin allows one).
        func split(_ range: Range<Int>) throws(ConfigurationError) -> [Range<Int>] {
            var parts: [Range<Int>] = []
            var depth = 0
            var start = range.lowerBound
            for index in range {
                guard case .punctuation(let character) = tokens[index].kind else { continue }
                switch character {
                case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
                case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                case UInt8(ascii: ",") where depth == 0:
                    guard start < index else { throw error(at: index, "an empty argument before this comma") }
                    parts.append(start..<index)
                    start = index + 1
                default: break
                }
            }
            if start < range.upperBound { parts.append(start..<range.upperBound) }
            return parts
        }

        /// One string literal, or literals and constants joined by `+`, or an unresolved argument.
        /// `written` is the argument as the message shows it (with a spread's `*`).
        func literal(_ range: Range<Int>, role: String, written: Range<Int>? = nil) throws(ConfigurationError)
            -> Literal
        {
            guard let token = tokens[safe: range.lowerBound], !range.isEmpty else {
                throw unresolved(range, role: role, written: written)
            }
            if range.count == 1, case .string(let value, nil) = token.kind {
                return Literal(value: value, line: token.line, column: token.column)
            }
            guard let resolved = try constants.value(of: range) else {
                throw unresolved(range, role: role, written: written)
            }
            return Literal(value: resolved.text, line: token.line, column: token.column, constants: resolved.sources)
        }

        /// The pins of one vararg argument: a literal, or a spread or Java array of literals, written there or held
        /// by an array constant of this file (`*PINS`, `*PINS.toTypedArray()`, Java's `PINS`).
        func pins(_ argument: Range<Int>) throws(ConfigurationError) -> [Literal] {
            var range = argument
            if isPunctuation(range.lowerBound, "*") { range = (range.lowerBound + 1)..<range.upperBound }
            var elements = try arrayElements(range)
            var source: String?
            if elements == nil, let declared = constants.array(named: withoutTypedArray(range)) {
                elements = try arrayElements(declared.value, declared: true)
                source = declared.source
            }
            guard let elements else { return [try literal(range, role: "pin", written: argument)] }
            var pins: [Literal] = []
            for element in elements {
                let pin = try literal(element, role: "pin")
                guard let source else {
                    pins.append(pin)
                    continue
                }
                // Where the array is spread: the add(…) that uses it, as for any other constant.
                let at = tokens[argument.lowerBound]
                pins.append(Literal(value: pin.value, line: at.line, column: at.column,
                                    constants: [source] + pin.constants))
            }
            return pins
        }

        /// `range` without a trailing `.toTypedArray()`, which turns a list constant into the array `add` takes.
        private func withoutTypedArray(_ range: Range<Int>) -> Range<Int> {
            let end = range.upperBound
            guard range.count > 4, isPunctuation(end - 4, "."), tokens[end - 3].identifier == "toTypedArray",
                  isPunctuation(end - 2, "("), isPunctuation(end - 1, ")") else { return range }
            return range.lowerBound..<(end - 4)
        }

        /// The elements of `arrayOf(…)`, `arrayOf<String>(…)`, `listOf(…).toTypedArray()` or `new String[] {…}` filling
        /// all of `range`; nil for anything else. A `declared` constant's value may also be `listOf(…)` or `{…}`.
        private func arrayElements(_ range: Range<Int>, declared: Bool = false) throws(ConfigurationError)
            -> [Range<Int>]?
        {
            var open = range.lowerBound + 1
            let name = tokens[safe: range.lowerBound]?.identifier
            if declared, isPunctuation(range.lowerBound, "{") {
                // Java's initialiser `String[] PINS = {…}`, whose braces fill the declared value.
                return try split((range.lowerBound + 1)..<(range.upperBound - 1))
            } else if name == "new", tokens[safe: open]?.identifier == "String", isPunctuation(open + 1, "["),
               isPunctuation(open + 2, "]"), isPunctuation(open + 3, "{") {
                open += 3
            } else if name == "arrayOf" || name == "listOf" {
                if isPunctuation(open, "<"), tokens[safe: open + 1]?.identifier == "String",
                   isPunctuation(open + 2, ">") {
                    open += 3
                }
                guard isPunctuation(open, "(") else { return nil }
            } else {
                return nil
            }
            guard let close = OkHttpBuilderCalls.closing(open, in: tokens) else { return nil }
            let end = name == "listOf" && tokens[safe: close + 2]?.identifier == "toTypedArray"
                && isPunctuation(close + 1, ".") && isPunctuation(close + 3, "(") && isPunctuation(close + 4, ")")
                ? close + 5 : close + 1
            guard end == range.upperBound, declared || name != "listOf" || end == close + 5 else { return nil }
            return try split((open + 1)..<close)
        }

        /// Names what `range` is; the message shows and points at `written` (the argument with a spread's `*`).
        private func unresolved(_ range: Range<Int>, role: String, written: Range<Int>? = nil) -> ConfigurationError {
            guard !range.isEmpty else { return error(at: range.lowerBound, "an empty \(role) argument") }
            let slice = tokens[range]
            let kind: String
            if let problem = constants.buildConfigProblem(in: range) {
                kind = "a BuildConfig field: \(problem)"
            } else if let dynamic = slice.lazy.compactMap({ token -> String? in
                if case .string(_, let dynamic?) = token.kind { return dynamic }
                return nil
            }).first {
                kind = dynamic
            } else if slice.contains(where: { $0.isPunctuation("+") }) {
                kind = "a concatenation of something other than literals and this file's constants"
            } else if slice.allSatisfy({ $0.identifier != nil || $0.isPunctuation(".") }) {
                kind = "a name that holds no string constant declared once in this file: a BuildConfig field, a "
                    + "variable, a parameter, or another file's constant"
            } else {
                kind = "an expression"
            }
            let shown = written ?? range
            let start = tokens[shown.lowerBound].range.lowerBound
            let bytes = source[start..<tokens[shown.upperBound - 1].range.upperBound]
            let words = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
                .joined(separator: " ")
            let text = words.count > 60 ? String(words.prefix(57)) + "…" : words
            // A define is looked up by the name as the source writes it (`BuildConfig.PIN`), so the hint uses it.
            let name = slice.allSatisfy({ $0.identifier != nil || $0.isPunctuation(".") }) && text.count <= 60
                ? text : "NAME"
            return error(at: shown.lowerBound, "unresolved \(role) \(text) (\(kind)): pinctl reads the string "
                + "literals given to add(…) and the string constants this file declares, runs no code, and stops "
                + "rather than guess; write the literal or a constant there, give the value with the app's defines: "
                + "(config import --define \(name)=VALUE), or give the app's pins inline in pinctl.yaml")
        }
    }
}
