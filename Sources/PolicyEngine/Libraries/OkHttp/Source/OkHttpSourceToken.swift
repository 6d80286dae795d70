/// A token of Kotlin or Java source, as much as finding `CertificatePinner.Builder().add(…)` calls needs: names,
/// string literals with their value, single punctuation characters; numbers and character literals only as `other`.
struct OkHttpSourceToken: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier(String)
        /// A string literal's value once its escapes are read; `dynamic` says why the value is not known from the
        /// file alone (a template `$HASH`, a Java text block), nil for a constant.
        case string(value: String, dynamic: String?)
        /// One ASCII character: `.`, `(`, `,`, `=`, `*`, … (`==` is two of them).
        case punctuation(UInt8)
        case other
    }

    let kind: Kind
    /// The byte offsets of the token in the file.
    let range: Range<Int>
    let line: Int
    /// In characters (Unicode scalars) from 1.
    let column: Int
    /// A Kotlin string's templates, in order: each inserted at a byte offset of the value the lexer kept (the text
    /// around them), naming a value (`$HASH`, `${Pins.HASH}`) or nil for any other expression.
    var templates: [Template] = []

    struct Template: Sendable {
        let offset: Int
        let name: String?
    }

    func isPunctuation(_ character: Unicode.Scalar) -> Bool { kind == .punctuation(UInt8(ascii: character)) }

    var identifier: String? {
        if case .identifier(let name) = kind { return name }
        return nil
    }
}

/// The two languages a `CertificatePinner` is written in; they differ in comments, strings and escapes.
public enum OkHttpSourceLanguage: Sendable {
    /// `.kt`, `.kts`: nested block comments, raw strings `"""…"""` and templates `$name`, `${…}`.
    case kotlin
    /// `.java`: block comments do not nest; text blocks `"""…"""`; octal escapes.
    case java

    var name: String { self == .kotlin ? "Kotlin" : "Java" }
}

/// The languages `OkHttpSourceLexer` reads: an app's Kotlin or Java source, and its module's Gradle build script in
/// Kotlin (`build.gradle.kts`, Kotlin's rules) or Groovy (`build.gradle`). One lexer for all of them, so that a comment
/// or a string ends where the compiler ends it in every file pinctl reads values from (#32).
enum SourceDialect: Sendable {
    case kotlin
    case java
    /// Groovy 3 and later (Gradle 7 on): block comments do not nest; `'…'` and `'''…'''` are strings without
    /// templates, `"…"` and `"""…"""` GStrings with them; slashy `/…/` and dollar-slashy `$/…/$` strings.
    case groovy

    init(_ language: OkHttpSourceLanguage) { self = language == .kotlin ? .kotlin : .java }

    var name: String {
        switch self {
        case .kotlin: "Kotlin"
        case .java: "Java"
        case .groovy: "Groovy"
        }
    }
}

extension Array where Element == OkHttpSourceToken {
    /// The token at `index`, nil past either end: lookahead and lookbehind never trap.
    subscript(safe index: Int) -> OkHttpSourceToken? { indices.contains(index) ? self[index] : nil }
}
