import Foundation
import FuzzSupport
import PinctlCLI
import XMLTree

/// Any text, as a value pinctl prints (a certificate's name, an app's, a server's message): the terminal's rule and
/// the XML writer's, each output re-read and compared.
enum OutputEscapingFuzz {
    static func check(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        checkTerminal(text)
        checkXML(text)
        checkMarkdown(text)
    }

    /// Markdown (the job summary): one code span GitHub reads back as the text (each control, format or separator
    /// character a space): fenced by a run of backticks that occurs nowhere inside, every `|` as `\|` (a table cell's
    /// escape, which GFM undoes in code spans too), no line break, and a padding space at each end where the
    /// content needs one to survive CommonMark's stripping of one.
    static func checkMarkdown(_ text: String) {
        let expected = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: " "
            default: scalar
            }
        }))
        let span = Array(MarkdownText.codeSpan(text).unicodeScalars)
        guard !expected.isEmpty else {
            Fuzz.require(span.isEmpty, "an empty text is not an empty cell")
            return
        }
        Fuzz.require(!span.contains { $0.properties.generalCategory == .control }, "a control character reaches Markdown")
        let fence = span.prefix { $0 == "`" }.count
        Fuzz.require(fence > 0 && span.count > 2 * fence && span.suffix(fence).allSatisfy { $0 == "`" },
                     "the cell is not one code span")
        var inner = Array(span[fence..<(span.count - fence)])
        Fuzz.require(inner.first != "`" && inner.last != "`", "a backtick lengthens the fence")
        var run = 0
        for scalar in inner {
            run = scalar == "`" ? run + 1 : 0
            Fuzz.require(run != fence, "a run of backticks inside closes the span")
        }
        // Undone as GitHub does: the table's `\|` first, then CommonMark's one space off each end.
        var index = 0
        var decoded: [Unicode.Scalar] = []
        while index < inner.count {
            Fuzz.require(inner[index] != "|", "a bare | ends the cell")
            if inner[index] == "\\", index + 1 < inner.count, inner[index + 1] == "|" {
                decoded.append("|")
                index += 2
            } else {
                decoded.append(inner[index])
                index += 1
            }
        }
        inner = decoded
        if inner.count >= 2, inner.first == " ", inner.last == " ", inner.contains(where: { $0 != " " }) {
            inner = Array(inner.dropFirst().dropLast())
        }
        Fuzz.require(String(String.UnicodeScalarView(inner)) == expected, "Markdown does not read back as the text")
    }

    /// No control character, C1 control or bidirectional override; no workflow command for a GitHub Actions runner
    /// (`##[` with ignorable characters between, `::` first after white space); the same text made safe twice.
    static func checkTerminal(_ text: String) {
        let safe = Terminal.safe(text)
        Fuzz.require(Terminal.safe(safe) == safe, "Terminal.safe is not idempotent: \(safe.debugDescription)")
        for scalar in safe.unicodeScalars {
            let forbidden = scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || [0x061C, 0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value)
            Fuzz.require(!forbidden, "U+\(String(scalar.value, radix: 16)) reaches the terminal")
        }
        let visible = String(String.UnicodeScalarView(safe.unicodeScalars.filter {
            !$0.properties.isDefaultIgnorableCodePoint
        }))
        Fuzz.require(!visible.contains("##["), "##[ reaches the runner: \(safe.debugDescription)")
        let start = visible.unicodeScalars.drop { $0.properties.isWhitespace }
        Fuzz.require(!String(String.UnicodeScalarView(start)).hasPrefix("::"), "a leading :: reaches the runner")
    }

    /// A report reads back as the visible escape of its text; a configuration is refused exactly when the text holds
    /// what XML cannot, and otherwise reads back as the text itself.
    static func checkXML(_ text: String) {
        guard (try? XMLLibrary.open()) != nil else { return }
        let element = XMLOutputElement("root", attributes: [("value", text)], children: [
            .element(XMLOutputElement("item", children: [.text(text)])),
        ])
        let expected = XMLCharacters.visible(text)
        Fuzz.require(XMLCharacters.visible(expected) == expected, "the visible escape is not idempotent")
        Fuzz.require(XMLCharacters.firstUnwritable(in: expected) == nil, "the visible escape holds what XML cannot")
        compare(XMLDocumentWriter.report(element, comments: [text]), expected, "report")
        do throws(XMLUnwritableValue) {
            compare(try XMLDocumentWriter.configuration(element), text, "configuration")
            Fuzz.require(XMLCharacters.firstUnwritable(in: text) == nil, "a configuration wrote what XML cannot hold")
        } catch {
            Fuzz.require(XMLCharacters.firstUnwritable(in: text) != nil, "a configuration refused writable text")
            Fuzz.require(error.place == "/root/@value", "the refusal names \(error.place), not the first place")
        }
    }

    private static func compare(_ document: [UInt8], _ expected: String, _ kind: String) {
        do {
            let root = try XMLDocumentReader.parse(document)
            Fuzz.require(root.attribute("value")?.value == expected, "the \(kind)'s attribute reads back otherwise")
            Fuzz.require(root.children.first?.text == expected, "the \(kind)'s text reads back otherwise")
        } catch {
            Fuzz.require(false, "the \(kind) does not parse: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(OutputEscapingFuzz.check) }
}
