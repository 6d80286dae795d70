import TextSyntax

/// Finds the `add(…)` calls made on a `CertificatePinner.Builder` in a file's tokens, in file order.
///
/// A builder is `CertificatePinner.Builder()`: qualified or not, after `new` in Java; `Builder()` alone or an alias
/// when an import names `CertificatePinner.Builder`; through an alias of `CertificatePinner`. Its calls are:
/// - the chain after it: `.add(…)`, the receiver blocks `.apply { add(…) }` and `.run { }`, the parameter blocks
///   `.also { it.add(…) }`, `.also { b -> b.add(…) }` and `.let { }`, up to `.build()`, or a `.run { }` or `.let { }`
///   whose last expression is `build()` on the builder (its value is then the pinner); any other member called on a
///   builder just made refuses the file, since the pins it adds would be lost (DESIGN §8: readers never fail open);
/// - `with(CertificatePinner.Builder()) { add(…) }`, and Java's double-brace `new CertificatePinner.Builder() {{
///   add(…); }}` (an anonymous subclass whose initializer adds to it);
/// - the body of an extension function on the builder, `fun CertificatePinner.Builder.pins() { add(…) }` or
///   `= add(…)`: it runs on whichever builder calls it;
/// - the calls on a variable that holds one: `val b = CertificatePinner.Builder()` (a chain not ending in `.build()`,
///   or after `cached ?:`), or any declaration typed `CertificatePinner.Builder` (a parameter, a field); `b.add(…)`
///   chains, `b.apply { }`, `b.also { }`, `with(b) { }`.
/// What this cannot see (a builder passed to another file and added to there, reflection) is not read; a builder
/// made here and neither built nor kept in a variable is named in a note.
struct OkHttpBuilderCalls {
    let tokens: [OkHttpSourceToken]
    private let path: String
    /// `CertificatePinner` and its import aliases.
    private var pinnerNames: Set<String> = ["CertificatePinner"]
    /// Names that make a builder alone: `Builder` after `import okhttp3.CertificatePinner.Builder`, or its alias.
    private var builderNames: Set<String> = []
    private var builderVariables: Set<String> = []
    /// The extension functions on the builder this file declares: a chain calls them and goes on.
    private var extensions: Set<String> = []
    /// The index of each call's `add` token.
    var calls: Set<Int> = []
    private(set) var builders: [Int] = []
    private(set) var notes: [String] = []

    /// The token index of every `add` whose `(` follows it, in file order, and the lines of the builders made.
    static func find(_ tokens: [OkHttpSourceToken], path: String) throws(ConfigurationError)
        -> (calls: [Int], builderLines: [Int], variables: [String], notes: [String])
    {
        var finder = OkHttpBuilderCalls(tokens: tokens, path: path)
        finder.readImports()
        try finder.readExtensionFunctions()
        try finder.readConstructions()
        finder.readTypedDeclarations()
        try finder.readVariableUses()
        return (finder.calls.sorted(), finder.builders.map { tokens[$0].line }, finder.builderVariables.sorted(),
                finder.notes)
    }

    private init(tokens: [OkHttpSourceToken], path: String) {
        self.tokens = tokens
        self.path = path
    }

    func identifier(_ index: Int) -> String? { tokens[safe: index]?.identifier }

    func isPunctuation(_ index: Int, _ character: Unicode.Scalar) -> Bool {
        tokens[safe: index]?.isPunctuation(character) ?? false
    }

    /// `import a.b.CertificatePinner.Builder [as X]` and `import a.b.CertificatePinner as X` (Kotlin aliases).
    private mutating func readImports() {
        for index in tokens.indices where identifier(index) == "import" && identifier(index + 1) != "static" {
            var path: [String] = []
            var next = index + 1
            while let name = identifier(next) {
                path.append(name)
                guard isPunctuation(next + 1, "."), identifier(next + 2) != nil else { break }
                next += 2
            }
            let alias = identifier(next + 1) == "as" ? identifier(next + 2) : nil
            if path.suffix(2) == ["CertificatePinner", "Builder"] {
                builderNames.insert(alias ?? "Builder")
            } else if path.last == "CertificatePinner", let alias {
                pinnerNames.insert(alias)
            }
        }
    }

    /// The index after a builder's construction starting at `index`, or nil.
    private func construction(at index: Int) -> Int? {
        guard let name = identifier(index) else { return nil }
        if pinnerNames.contains(name), isPunctuation(index + 1, "."), identifier(index + 2) == "Builder",
           isPunctuation(index + 3, "("), isPunctuation(index + 4, ")") {
            return index + 5
        }
        if builderNames.contains(name), !isPunctuation(index - 1, "."), isPunctuation(index + 1, "("),
           isPunctuation(index + 2, ")") {
            return index + 3
        }
        return nil
    }

    /// The index after a builder type (`CertificatePinner.Builder`, an imported `Builder`) starting at `index`.
    private func builderType(at index: Int) -> Int? {
        guard let name = identifier(index) else { return nil }
        if pinnerNames.contains(name), isPunctuation(index + 1, "."), identifier(index + 2) == "Builder",
           !isPunctuation(index + 3, "(") {
            return index + 3
        }
        if builderNames.contains(name), !isPunctuation(index - 1, "."), !isPunctuation(index + 1, "(") {
            return index + 1
        }
        return nil
    }

    private mutating func readConstructions() throws(ConfigurationError) {
        for index in tokens.indices {
            guard var end = construction(at: index) else { continue }
            builders.append(index)
            if isPunctuation(end, "{"), isPunctuation(end + 1, "{") {
                // Java's double brace: the inner block is the anonymous subclass's initializer, run on the builder.
                try receiverBlock(at: end + 1)
                end = try closing(end) + 1
            }
            if identifier(index - 2) == "with", isPunctuation(index - 1, "("), isPunctuation(end, ")"),
               isPunctuation(end + 1, "{") {
                try receiverBlock(at: end + 1)
                continue
            }
            guard try !chain(from: end, strict: true) else { continue }
            if let variable = assignedVariable(constructionAt: index) {
                builderVariables.insert(variable)
            } else {
                // Handed on unbuilt (returned, passed): whoever adds to it pins hosts this file cannot show, and a
                // host read as unpinned would be judged safe where the app rejects (#19: never fail open).
                throw ConfigurationError(
                    file: path, line: tokens[index].line, column: tokens[index].column,
                    message: "this CertificatePinner.Builder() is neither built here nor kept in a variable: pins "
                        + "added to it elsewhere cannot be read, and a host they pin would be judged unpinned; build "
                        + "it here, or give the app's pins inline in pinctl.yaml")
            }
        }
    }

    /// `NAME = <construction>`: Kotlin's `val b =` (also `= cached ?:`), Java's `Builder b = new`, `this.b =`; not
    /// `==` and not the type of a typed declaration (found by `readTypedDeclarations`).
    private func assignedVariable(constructionAt index: Int) -> String? {
        var start = index
        while isPunctuation(start - 1, "."), identifier(start - 2) != nil { start -= 2 }
        if identifier(start - 1) == "new" { start -= 1 }
        // Kotlin's `val b = cached ?: CertificatePinner.Builder()`: b holds the new builder whenever cached is null.
        if isPunctuation(start - 1, ":"), isPunctuation(start - 2, "?"), identifier(start - 3) != nil {
            start -= 3
            while isPunctuation(start - 1, "."), identifier(start - 2) != nil { start -= 2 }
        }
        guard isPunctuation(start - 1, "="), let name = identifier(start - 2), !builderNames.contains(name),
              !isPunctuation(start - 3, ".") || identifier(start - 4) == "this"
        else { return nil }
        return name
    }

    /// Kotlin `name: CertificatePinner.Builder`, Java `CertificatePinner.Builder name` (parameters, fields, locals).
    private mutating func readTypedDeclarations() {
        for index in tokens.indices {
            if let name = identifier(index), isPunctuation(index + 1, ":"), builderType(at: index + 2) != nil {
                builderVariables.insert(name)
            } else if let end = builderType(at: index), let name = identifier(end),
                      [";", "=", ",", ")"].contains(where: { isPunctuation(end + 1, $0) }) {
                builderVariables.insert(name)
            }
        }
    }

    /// `b.add(…)…`, `this.b.add(…)`, `b.apply { }` and `with(b) { }` for every builder variable.
    private mutating func readVariableUses() throws(ConfigurationError) {
        for index in tokens.indices {
            guard let name = identifier(index), builderVariables.contains(name) else { continue }
            let receiverOnly = !isPunctuation(index - 1, ".") || identifier(index - 2) == "this"
            if receiverOnly, isPunctuation(index + 1, ".") {
                _ = try chain(from: index + 1)
            } else if identifier(index - 2) == "with", isPunctuation(index - 1, "("), isPunctuation(index + 1, ")"),
                      isPunctuation(index + 2, "{") {
                try receiverBlock(at: index + 2)
            }
        }
    }

    /// Follows `.add(…)`, `.apply { }`, `.run { }`, `.also { }` and `.let { }` from `index`; true when the chain ends
    /// in `.build()`. `strict` (the chain of a builder just made, which cannot be anything else) refuses any other
    /// member; on a variable, whose name may also be another object's in another scope, the chain just ends.
    mutating func chain(from start: Int, strict: Bool = false) throws(ConfigurationError) -> Bool {
        var index = start
        while isPunctuation(index, ".") {
            switch identifier(index + 1) {
            case "add" where isPunctuation(index + 2, "("):
                calls.insert(index + 1)
                index = try closing(index + 2) + 1
            case "apply" where isPunctuation(index + 2, "{"):
                index = try receiverBlock(at: index + 2) + 1
            case "run" where isPunctuation(index + 2, "{"):
                // `run` gives the block's value: a block ending in `build()` builds the builder in it.
                let close = try receiverBlock(at: index + 2)
                if endsInBuild(close, receiver: nil) { return true }
                index = close + 1
            case "also" where isPunctuation(index + 2, "{"):
                index = try parameterBlock(at: index + 2) + 1
            case "let" where isPunctuation(index + 2, "{"):
                let close = try parameterBlock(at: index + 2)
                if endsInBuild(close, receiver: parameter(ofBlockAt: index + 2)) { return true }
                index = close + 1
            case "build" where isPunctuation(index + 2, "(") && isPunctuation(index + 3, ")"):
                return true
            case let member? where extensions.contains(member) && isPunctuation(index + 2, "("):
                index = try closing(index + 2) + 1
            case let member? where strict:
                let token = tokens[index + 1]
                throw ConfigurationError(
                    file: path, line: token.line, column: token.column,
                    message: "pinctl cannot follow .\(UntrustedText.excerpt(member)) on a CertificatePinner.Builder, "
                        + "so the pins it adds would not be read: add them with .add(…), .apply { }, .run { }, "
                        + ".also { } or .let { } on the builder")
            default:
                return false
            }
        }
        return false
    }

    /// `fun CertificatePinner.Builder.name(…) { add(…) }` and `… = add(…)`, `= apply { }`: the body runs with a builder
    /// as its receiver.
    private mutating func readExtensionFunctions() throws(ConfigurationError) {
        for index in tokens.indices where identifier(index) == "fun" {
            var start = index + 1
            if isPunctuation(start, "<"), let close = Self.closingAngle(start, in: tokens) { start = close + 1 }
            guard let end = builderType(at: start), isPunctuation(end, "."), let name = identifier(end + 1),
                  isPunctuation(end + 2, "(")
            else { continue }
            extensions.insert(name)
            var body = try closing(end + 2) + 1
            if isPunctuation(body, ":") {
                // The return type: up to the body's `{` or `=`.
                while body < tokens.count, !isPunctuation(body, "{"), !isPunctuation(body, "=") { body += 1 }
            }
            if isPunctuation(body, "{") {
                try receiverBlock(at: body)
            } else if isPunctuation(body, "=") {
                if identifier(body + 1) == "add", isPunctuation(body + 2, "(") {
                    calls.insert(body + 1)
                    _ = try chain(from: try closing(body + 2) + 1)
                } else if identifier(body + 1) == "this", isPunctuation(body + 2, ".") {
                    _ = try chain(from: body + 2)
                } else if ["apply", "run"].contains(identifier(body + 1)), isPunctuation(body + 2, "{") {
                    try receiverBlock(at: body + 2)
                }
            }
        }
    }

    /// The index of the bracket closing the one at `open`.
    func closing(_ open: Int) throws(ConfigurationError) -> Int {
        guard let close = Self.closing(open, in: tokens) else {
            throw ConfigurationError(file: path, line: tokens[open].line, column: tokens[open].column,
                                     message: "this bracket is never closed")
        }
        return close
    }
}
