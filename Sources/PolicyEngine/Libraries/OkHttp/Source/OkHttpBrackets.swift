// Brackets in a token stream, matched without regard to what the tokens between them mean.
extension OkHttpBuilderCalls {
    /// The index of the `>` closing the type parameters opened at `open`.
    static func closingAngle(_ open: Int, in tokens: [OkHttpSourceToken]) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            if tokens[index].isPunctuation("<") { depth += 1 }
            if tokens[index].isPunctuation(">") {
                depth -= 1
                if depth == 0 { return index }
            }
            if tokens[index].isPunctuation("{") || tokens[index].isPunctuation("(") { return nil }
        }
        return nil
    }

    /// The index of the bracket closing the one at `open`, counting (), [] and {} alike; nil when none does.
    static func closing(_ open: Int, in tokens: [OkHttpSourceToken]) -> Int? {
        var depth = 0
        for index in open..<tokens.count {
            guard case .punctuation(let character) = tokens[index].kind else { continue }
            switch character {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}
