/// Where a source file declares its string constants, and the objects, classes and interfaces that own them: what
/// `OkHttpConstants` resolves a name from. A name declared twice, or that may be assigned again (a `var`, a Java field
/// without `final`, a parameter), is recorded so, and never resolved.
struct OkHttpConstantDeclarations {
    /// One declaration: the tokens of its value and where the name is declared.
    struct Declaration {
        let value: Range<Int>
        let line: Int
        let reassignable: Bool
        /// An array or list of strings (`arrayOf(…)`, `listOf(…)`, Java's `String[] NAME = {…}`), spread into `add`.
        var isArray = false
    }

    private let tokens: [OkHttpSourceToken]
    private(set) var byName: [String: [Declaration]] = [:]
    /// Objects, classes and interfaces this file declares: owners whose constants are in it.
    private(set) var owners: Set<String> = []

    init(_ tokens: [OkHttpSourceToken]) {
        self.tokens = tokens
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
        byName[name, default: []].append(Declaration(value: value, line: line, reassignable: reassignable,
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
