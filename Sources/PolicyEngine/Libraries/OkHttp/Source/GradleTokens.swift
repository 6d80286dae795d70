/// A Gradle build script (Groovy `build.gradle` or Kotlin `build.gradle.kts`) as far as finding its
/// `buildConfigField` calls and the blocks around them needs: words, strings, braces, parentheses and commas. A view
/// of the tokens of `OkHttpSourceLexer`, the one lexer of the Kotlin family (#32: this file had a lexer of its own,
/// which ended a Kotlin comment at the first `*/` and a string at the first `"` inside `${…}`, and so read a field the
/// compiler never sees). A string's value is its text with the language's escapes read; one with a template (`"$x"`)
/// has none. What the lexer refuses (an unterminated comment or string, a Groovy `/` it cannot place) is refused here.
struct GradleTokens {
    enum Kind: Equatable {
        case word(String)
        /// A string's value; nil when a template makes it depend on the build.
        case string(String?)
        case open
        case close
        case openParenthesis
        case closeParenthesis
        case comma
        case other
    }

    struct Token {
        let kind: Kind
        let line: Int
        /// The line the token ends on: a Groovy call without parentheses ends its last argument at the line's end.
        let endLine: Int
    }

    let items: [Token]

    /// The tokens of the build script at `path`: Kotlin's rules for `.kts`, Groovy's for any other name.
    init(_ bytes: [UInt8], path: String) throws(ConfigurationError) {
        let dialect: SourceDialect = path.lowercased().hasSuffix(".kts") ? .kotlin : .groovy
        items = try OkHttpSourceLexer.tokens(bytes, path: path, dialect: dialect).map { token in
            let breaks = bytes[token.range].indices.count { offset in
                bytes[offset] == 0x0A || bytes[offset] == 0x0D && offset + 1 < bytes.count && bytes[offset + 1] != 0x0A
            }
            return Token(kind: Self.kind(of: token.kind), line: token.line, endLine: token.line + breaks)
        }
    }

    private static func kind(of kind: OkHttpSourceToken.Kind) -> Kind {
        switch kind {
        case .identifier(let name): return .word(name)
        case .string(let value, let dynamic): return .string(dynamic == nil ? value : nil)
        case .punctuation(UInt8(ascii: "{")): return .open
        case .punctuation(UInt8(ascii: "}")): return .close
        case .punctuation(UInt8(ascii: "(")): return .openParenthesis
        case .punctuation(UInt8(ascii: ")")): return .closeParenthesis
        case .punctuation(UInt8(ascii: ",")): return .comma
        case .punctuation, .other: return .other
        }
    }

    /// The name of the block whose `{` is at `open`: `name {`, or the string of `create("x") {`, `getByName("x") {`,
    /// `register("x") {`, `maybeCreate("x") {`, `named("x") {`; nil for a lambda after anything else.
    func blockName(endingBefore open: Int) -> String? {
        guard open >= 1 else { return nil }
        if case .word(let name) = items[open - 1].kind { return name }
        guard open >= 4, items[open - 1].kind == .closeParenthesis, case .string(let name?) = items[open - 2].kind,
              items[open - 3].kind == .openParenthesis, case .word(let call) = items[open - 4].kind,
              ["create", "getByName", "register", "maybeCreate", "named"].contains(call)
        else { return nil }
        return name
    }

    /// `("TYPE", "NAME", "VALUE")` or Groovy's `"TYPE", "NAME", "VALUE"` after `buildConfigField` at `index`: the three
    /// strings (each nil when a template or an expression makes it unknown) and the index after them. A string is an
    /// argument's value only when the argument ends with it: `"\"x\"" + suffix` is an expression.
    func fieldArguments(after index: Int) -> (type: String?, name: String?, value: String?, next: Int) {
        var next = index + 1
        let parenthesized = next < items.count && items[next].kind == .openParenthesis
        if parenthesized { next += 1 }
        var arguments: [String?] = []
        while arguments.count < 3, next < items.count {
            if case .string(let value) = items[next].kind, endsArgument(after: next, parenthesized: parenthesized) {
                arguments.append(value)
                next += 1
            } else {
                arguments.append(nil)
                // An expression: up to the next comma or the call's end.
                while next < items.count, items[next].kind != .comma, items[next].kind != .closeParenthesis,
                      items[next].kind != .close { next += 1 }
            }
            guard arguments.count < 3, next < items.count, items[next].kind == .comma else { break }
            next += 1
        }
        while arguments.count < 3 { arguments.append(nil) }
        return (arguments[0], arguments[1], arguments[2], next)
    }

    /// Whether the argument ends after the token at `index`: at a comma, the call's `)`, or (Groovy's call without
    /// parentheses) the end of the line, a `}`, or the file's end.
    private func endsArgument(after index: Int, parenthesized: Bool) -> Bool {
        guard index + 1 < items.count else { return true }
        let following = items[index + 1]
        switch following.kind {
        case .comma: return true
        case .closeParenthesis: return parenthesized
        case .close: return !parenthesized
        default: return !parenthesized && following.line > items[index].endLine
        }
    }
}
