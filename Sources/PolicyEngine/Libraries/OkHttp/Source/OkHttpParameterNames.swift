/// The names a Kotlin or Java file binds to values it does not hold: parameters, lambda parameters and loop
/// variables. A constant of the same name is then ambiguous — `hosts.forEach { host -> add(host, PIN) }` beside a
/// property `val host = "a.example.com"` adds every host of the list, not the property — so `OkHttpConstants` follows
/// neither, and reading stops there rather than judge the app by the property's value (#19).
///
/// Found by shape, not by a parser: a name is counted when in doubt (a `when` branch's condition inside a call's
/// parentheses may be), because counting one too many only stops a read that could have gone on.
enum OkHttpParameterNames {
    struct Binding {
        let name: String
        let line: Int
    }

    static func find(in tokens: [OkHttpSourceToken]) -> [Binding] {
        var bindings: [Binding] = []
        func bind(_ index: Int) {
            guard let name = tokens[safe: index]?.identifier else { return }
            bindings.append(Binding(name: name, line: tokens[index].line))
        }
        for index in tokens.indices {
            if isArrow(index, tokens) {
                lambdaParameters(before: index, tokens).forEach(bind)
            } else if tokens[index].identifier == "for", tokens[safe: index + 1]?.isPunctuation("(") == true {
                loopVariables(after: index + 1, tokens).forEach(bind)
            } else if tokens[index].identifier != nil, tokens[safe: index + 1]?.isPunctuation(":") == true,
                      tokens[safe: index + 2]?.identifier != nil,
                      !["val", "var"].contains(tokens[safe: index - 1]?.identifier ?? "") {
                // Kotlin's `name: Type` not after `val`/`var`: a parameter, whose value is the caller's.
                bind(index)
            }
        }
        return bindings
    }

    /// `->`, which the lexer gives as `-` then `>`.
    private static func isArrow(_ index: Int, _ tokens: [OkHttpSourceToken]) -> Bool {
        tokens[index].isPunctuation("-") && tokens[safe: index + 1]?.isPunctuation(">") == true
            && tokens[index + 1].range.lowerBound == tokens[index].range.upperBound
    }

    /// The parameters before the arrow at `arrow`: Kotlin's `{ a, b: T -> …}` and `{ (a, b) -> …}`, Java's `a -> …`
    /// and `(a, b) -> …` / `(String a, String b) -> …`. A `when` branch (`when (x) { A -> …}`) binds nothing.
    private static func lambdaParameters(before arrow: Int, _ tokens: [OkHttpSourceToken]) -> [Int] {
        var start = arrow
        if tokens[safe: arrow - 1]?.isPunctuation(")") == true {
            // A parenthesised list: its names are the identifiers before `,`, `)` or `:`.
            guard let open = opening(arrow - 1, tokens) else { return [] }
            return names(in: (open + 1)..<(arrow - 1), tokens)
        }
        // A bare list: walk back over names, commas and type annotations to what opens it.
        while let token = tokens[safe: start - 1], token.identifier != nil || token.isPunctuation(",")
            || token.isPunctuation(":") || token.isPunctuation(".") || token.isPunctuation("<")
            || token.isPunctuation(">") || token.isPunctuation("?") {
            start -= 1
        }
        guard start < arrow, let opener = tokens[safe: start - 1] else { return [] }
        if opener.isPunctuation("{") {
            guard !opensWhen(start - 1, tokens) else { return [] }
        } else if !opener.isPunctuation("(") && !opener.isPunctuation(",") {
            return []
        }
        return names(in: start..<arrow, tokens)
    }

    /// `for (name in …)`, `for ((a, b) in …)`, Java's `for (Type name : …)`.
    private static func loopVariables(after open: Int, _ tokens: [OkHttpSourceToken]) -> [Int] {
        var index = open + 1
        if tokens[safe: index]?.isPunctuation("(") == true, let close = OkHttpBuilderCalls.closing(index, in: tokens) {
            return names(in: (index + 1)..<close, tokens)
        }
        while tokens[safe: index]?.identifier != nil, tokens[safe: index + 1]?.identifier != nil,
              tokens[safe: index + 1]?.identifier != "in" {
            index += 1
        }
        let next = tokens[safe: index + 1]
        guard tokens[safe: index]?.identifier != nil,
              next?.identifier == "in" || next?.isPunctuation(":") == true else { return [] }
        return [index]
    }

    /// The identifiers of `range` that name a parameter: followed by `,`, `)`, `:` or the arrow, and not a type
    /// (after `:`, `.` or `<`).
    private static func names(in range: Range<Int>, _ tokens: [OkHttpSourceToken]) -> [Int] {
        range.filter { index in
            guard tokens[index].identifier != nil else { return false }
            if let previous = tokens[safe: index - 1], previous.isPunctuation(":") || previous.isPunctuation(".")
                || previous.isPunctuation("<") {
                return false
            }
            guard let next = tokens[safe: index + 1] else { return false }
            return next.isPunctuation(",") || next.isPunctuation(")") || next.isPunctuation(":")
                || next.isPunctuation("-") || index + 1 == range.upperBound
        }
    }

    /// Whether the `{` at `brace` opens a `when`: `when {` or `when (subject) {`.
    private static func opensWhen(_ brace: Int, _ tokens: [OkHttpSourceToken]) -> Bool {
        if tokens[safe: brace - 1]?.identifier == "when" { return true }
        guard tokens[safe: brace - 1]?.isPunctuation(")") == true, let open = opening(brace - 1, tokens) else {
            return false
        }
        return tokens[safe: open - 1]?.identifier == "when"
    }

    /// The `(` matching the `)` at `close`.
    private static func opening(_ close: Int, _ tokens: [OkHttpSourceToken]) -> Int? {
        var depth = 0
        var index = close
        while index >= 0 {
            if tokens[index].isPunctuation(")") { depth += 1 }
            if tokens[index].isPunctuation("(") {
                depth -= 1
                if depth == 0 { return index }
            }
            index -= 1
        }
        return nil
    }
}
