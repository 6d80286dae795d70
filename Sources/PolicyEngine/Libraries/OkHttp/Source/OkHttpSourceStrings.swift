/// String literals, as the Kotlin, Java and Groovy compilers read them: their value once escapes are read, and whether
/// that value is known from the file alone (a template's is not).
extension OkHttpSourceLexer {
    /// How one kind of string literal is written: what ends it, which escapes and templates it has.
    struct StringForm {
        enum Closing {
            /// One quote.
            case quote(UInt8)
            /// Kotlin's raw string: three quotes, any more before them belong to the string (`""""a""""` is `"a"`).
            case kotlinTriple
            /// Groovy's `'''` and `"""`: up to two more quotes before the closing three belong to the string; from six
            /// on, the first three close it (GroovyLexer.g4, TdqStringCharacter).
            case groovyTriple(UInt8)
            /// Groovy's slashy string `/…/`.
            case slash
            /// Groovy's dollar-slashy string `$/…/$`.
            case slashDollar
        }

        enum Escapes {
            /// The language's backslash escapes.
            case backslash
            /// None (Kotlin's raw string).
            case none
            /// Only `\/` (Groovy's slashy string, whose other backslashes are characters).
            case slash
            /// `$/` and `$$` (Groovy's dollar-slashy string).
            case dollar
        }

        enum Templates {
            case none
            /// `$name`, `${…}`; a `$` before anything else is a character.
            case lenient
            /// As `lenient`, but a `$` before anything else is refused: Groovy's `"…"` and `"""…"""`.
            case strict
        }

        let opening: Int
        let closing: Closing
        let multiline: Bool
        let escapes: Escapes
        let templates: Templates
        /// For messages: "string literal", "raw string", ….
        let name: String
    }

    /// Any string literal that starts with a quote: `"…"`, Kotlin's raw `"""…"""`, Java's text block, Groovy's `'…'`,
    /// `'''…'''`, `"…"` and `"""…"""`.
    mutating func string() throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        let start = here()
        let quote = bytes[index]
        let tripled = byte(at: index + 1) == quote && byte(at: index + 2) == quote
        let form: StringForm
        switch (dialect, tripled) {
        case (.java, true):
            return try textBlock(start)
        case (.kotlin, true):
            form = StringForm(opening: 3, closing: .kotlinTriple, multiline: true, escapes: .none,
                              templates: .lenient, name: "raw string")
        case (.groovy, true):
            form = StringForm(opening: 3, closing: .groovyTriple(quote), multiline: true, escapes: .backslash,
                              templates: quote == UInt8(ascii: "\"") ? .strict : .none, name: "triple-quoted string")
        case (.groovy, false):
            form = StringForm(opening: 1, closing: .quote(quote), multiline: false, escapes: .backslash,
                              templates: quote == UInt8(ascii: "\"") ? .strict : .none, name: "string literal")
        case (.kotlin, false), (.java, false):
            form = StringForm(opening: 1, closing: .quote(quote), multiline: false, escapes: .backslash,
                              templates: dialect == .kotlin ? .lenient : .none, name: "string literal")
        }
        return try literal(start, form)
    }

    /// The string literal of `form` at `start`: its value, and why it is not known when a template makes it depend on
    /// the program.
    mutating func literal(_ start: Place, _ form: StringForm) throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        index += form.opening
        var value: [UInt8] = []
        var dynamic: String?
        var templates: [OkHttpSourceToken.Template] = []
        while true {
            guard let current = byte(at: index), form.multiline || !atLineEnd else {
                let opened = String(decoding: bytes[start.offset..<(start.offset + form.opening)], as: UTF8.self)
                throw error(start, "unterminated \(form.name): the \(opened) opened here is "
                    + (form.multiline ? "never closed" : "not closed on its line"))
            }
            if let (kept, length) = closing(form.closing) {
                value += bytes[index..<(index + kept)]
                index += length
                stringTemplates = templates
                return .string(value: String(decoding: value, as: UTF8.self), dynamic: dynamic)
            }
            let next = byte(at: index + 1)
            switch (current, form.escapes) {
            case (UInt8(ascii: "\\"), .backslash):
                try escape(into: &value)
                continue
            case (UInt8(ascii: "\\"), .slash) where next == UInt8(ascii: "/"),
                 (UInt8(ascii: "$"), .dollar) where next == UInt8(ascii: "/") || next == UInt8(ascii: "$"):
                value.append(next ?? 0)
                index += 2
                continue
            default:
                break
            }
            if current == UInt8(ascii: "$"), form.templates != .none {
                if let template = try template(start) {
                    templates.append(.init(offset: value.count, name: Self.templateName(template.text)))
                    dynamic = dynamic ?? "a string with the template \(template.shown)"
                    continue
                }
                if form.templates == .strict {
                    throw error(here(), "a $ in a Groovy \(form.name) begins a template ($name or ${…}); "
                        + "write \\$ for the character, or the Groovy compiler refuses the file")
                }
            }
            value.append(current)
            advance()
        }
    }

    /// At a possible end of a string: how many of the bytes here belong to the string, and how many end it; nil when
    /// the string goes on.
    private func closing(_ closing: StringForm.Closing) -> (kept: Int, length: Int)? {
        func quotes(_ quote: UInt8) -> Int {
            var count = 0
            while byte(at: index + count) == quote { count += 1 }
            return count
        }
        switch closing {
        case .quote(let quote):
            return byte(at: index) == quote ? (0, 1) : nil
        case .kotlinTriple:
            let run = quotes(UInt8(ascii: "\""))
            return run >= 3 ? (run - 3, run) : nil
        case .groovyTriple(let quote):
            let run = quotes(quote)
            return run < 3 ? nil : run <= 5 ? (run - 3, run) : (0, 3)
        case .slash:
            return byte(at: index) == UInt8(ascii: "/") ? (0, 1) : nil
        case .slashDollar:
            return byte(at: index) == UInt8(ascii: "/") && byte(at: index + 1) == UInt8(ascii: "$") ? (0, 2) : nil
        }
    }

    /// Java's `"""` text block: read to its end (escapes included) so what follows is tokenized right; its value
    /// depends on indentation stripping pinctl does not apply, so it counts as unknown.
    private mutating func textBlock(_ start: Place) throws(ConfigurationError) -> OkHttpSourceToken.Kind {
        index += 3
        while let current = byte(at: index), current == 0x20 || current == 0x09 || current == 0x0C { index += 1 }
        guard byte(at: index) == 0x0A || byte(at: index) == 0x0D else {
            throw error(start, "a text block's opening \"\"\" must end its line")
        }
        var ignored: [UInt8] = []
        while true {
            guard let current = byte(at: index) else {
                throw error(start, "unterminated text block: the \"\"\" opened here is never closed")
            }
            if current == UInt8(ascii: "\\") {
                try escape(into: &ignored)
            } else if current == UInt8(ascii: "\""), byte(at: index + 1) == current, byte(at: index + 2) == current {
                index += 3
                return .string(value: "", dynamic: "a text block, whose indentation Java strips")
            } else {
                advance()
            }
        }
    }

    /// A template at a `$`: `$name` or `${expression}` (its tokens read to the `}` that closes it, so strings, comments
    /// and braces inside are what the compiler sees); nil when the `$` is no template here.
    private mutating func template(_ start: Place) throws(ConfigurationError) -> (text: String, shown: String)? {
        let first = index
        guard let next = byte(at: index + 1) else { return nil }
        if next == UInt8(ascii: "{") {
            templateDepth += 1
            defer { templateDepth -= 1 }
            guard templateDepth <= 32 else { throw error(start, "string templates nested more than 32 deep") }
            index += 1
            var depth = 0
            repeat {
                guard let token = try nextToken() else {
                    throw error(start, "unterminated string template: the ${ in this string is never closed")
                }
                if token.isPunctuation("{") {
                    depth += 1
                } else if token.isPunctuation("}") {
                    depth -= 1
                }
            } while depth > 0
        } else if next == UInt8(ascii: "`"), dialect == .kotlin {
            index += 1
            _ = try backtickName()
        } else if Self.startsName(next) {
            index += 1
            _ = name(inTemplate: true)
        } else {
            return nil
        }
        let text = String(decoding: bytes[first..<index], as: UTF8.self)
        return (text, text.count > 40 ? String(text.prefix(37)) + "…" : text)
    }

    /// The value a template names: `$NAME` or `${NAME}`, `${Owner.NAME}` with blanks inside the braces; nil for any
    /// other expression (a call, an index, an operator), whose value is not a constant's.
    static func templateName(_ text: String) -> String? {
        var body = Substring(text.dropFirst())
        if body.hasPrefix("{") {
            body = body.dropFirst().dropLast()
            body = body.drop(while: { $0 == " " || $0 == "\t" })
            while body.last == " " || body.last == "\t" { body = body.dropLast() }
        }
        guard OkHttpDefinition.isDefinableName(String(body)) else { return nil }
        return String(body)
    }
}
