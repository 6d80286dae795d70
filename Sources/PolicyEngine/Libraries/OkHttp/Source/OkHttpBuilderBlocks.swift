/// The lambdas a `CertificatePinner.Builder` is handed to (`apply`, `run`, `with` give it as the receiver; `also`,
/// `let` as the parameter): the `add(…)` calls inside, and whether the block's value is the built pinner.
extension OkHttpBuilderCalls {
    /// Whether the block closing at `close` ends in `build()` on its receiver (`receiver` nil: `build()` or
    /// `this.build()`) or on the parameter `receiver` (`it.build()`): the last expression, so the block's value is
    /// the built pinner (`CertificatePinner.Builder().run { add(…); build() }`).
    func endsInBuild(_ close: Int, receiver: String?) -> Bool {
        let call = close - 3
        guard identifier(call) == "build", isPunctuation(call + 1, "("), isPunctuation(call + 2, ")") else {
            return false
        }
        guard let receiver else {
            if isPunctuation(call - 1, ".") { return identifier(call - 2) == "this" && !isPunctuation(call - 3, ".") }
            // Bare: after what ends the statement before it (`;`, a bracket, a name or a literal on the line above),
            // not after an operator, whose operand it would be.
            switch tokens[safe: call - 1]?.kind {
            case .identifier?, .string?, .other?: return true
            case .punctuation(let byte)?: return Array(";{})".utf8).contains(byte)
            case nil: return false
            }
        }
        return isPunctuation(call - 1, ".") && identifier(call - 2) == receiver && !isPunctuation(call - 3, ".")
    }

    /// The name a lambda at `open` gives its parameter: `it`, or the name before `->` (`{ b -> … }`, `{ b:
    /// CertificatePinner.Builder -> … }`).
    func parameter(ofBlockAt open: Int) -> String {
        guard let close = Self.closing(open, in: tokens), let first = identifier(open + 1) else { return "it" }
        var arrow = open + 2
        if isPunctuation(arrow, ":") {
            while arrow < close, !(isPunctuation(arrow, "-") && isPunctuation(arrow + 1, ">")) { arrow += 1 }
        }
        return isPunctuation(arrow, "-") && isPunctuation(arrow + 1, ">") ? first : "it"
    }

    /// A lambda given the builder as its parameter (`also`, `let`; `parameter(ofBlockAt:)`): the calls on it inside.
    /// Returns the `}`'s index.
    @discardableResult
    mutating func parameterBlock(at open: Int) throws(ConfigurationError) -> Int {
        let close = try closing(open)
        let parameter = parameter(ofBlockAt: open)
        for index in (open + 1)..<close where identifier(index) == parameter && !isPunctuation(index - 1, ".") {
            if isPunctuation(index + 1, ".") {
                _ = try chain(from: index + 1)
            } else if identifier(index - 2) == "with", isPunctuation(index - 1, "("), isPunctuation(index + 1, ")"),
                      isPunctuation(index + 2, "{") {
                try receiverBlock(at: index + 2)
            }
        }
        return close
    }

    /// A lambda whose receiver is the builder: its `add(…)` and `this.add(…)` calls. Returns the `}`'s index.
    @discardableResult
    mutating func receiverBlock(at open: Int) throws(ConfigurationError) -> Int {
        let close = try closing(open)
        for index in (open + 1)..<close where identifier(index) == "add" && isPunctuation(index + 1, "(") {
            let onThis = isPunctuation(index - 1, ".") && identifier(index - 2) == "this"
            let bare = !isPunctuation(index - 1, ".") && !isPunctuation(index - 1, ":")
                && identifier(index - 1) != "fun"
            if onThis || bare {
                calls.insert(index)
            }
        }
        return close
    }
}
