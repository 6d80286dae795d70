import FoundationEssentials
import JSONTree
import TextSyntax

/// TrustKit's configuration written as JSON (`JSONTree`, which names the line of a mistake), as property list values.
enum JSONPropertyListReader {
    struct Failure: Error {
        let line: Int?
        let message: String
    }

    static func read(_ bytes: [UInt8]) throws(Failure) -> PropertyListValue {
        do {
            return value(try JSONTree.parse(bytes))
        } catch {
            throw Failure(line: error.line, message: quotingLess(error.message))
        }
    }

    /// Jansson ends a message with the token it stopped at (`':' expected near '"VALUE"'`), and `config:` can name
    /// any file, a credentials JSON too: a string token is named, not quoted (a whole string value can be a secret),
    /// any other token is quoted as `UntrustedText` excerpts.
    static func quotingLess(_ message: String) -> String {
        guard let near = message.firstRange(of: " near '"), message.hasSuffix("'"),
              near.upperBound < message.index(before: message.endIndex)
        else { return message }
        let token = message[near.upperBound..<message.index(before: message.endIndex)]
        let shown = token.hasPrefix("\"") ? "a string" : "'\(UntrustedText.excerpt(token))'"
        return message[..<near.lowerBound] + " near " + shown
    }

    private static func value(_ json: JSONNode) -> PropertyListValue {
        switch json {
        case .object(let members): .dictionary(members.mapValues(value))
        case .array(let elements): .array(elements.map(value))
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .bool(let flag): .bool(flag)
        case .null: .null
        }
    }
}
