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

    /// Markdown (the job summary): every ASCII punctuation character is backslash-escaped or part of one of the
    /// three entities, nothing is a control character, and undoing that gives the text with each control, format or
    /// separator character as a space.
    static func checkMarkdown(_ text: String) {
        let escaped = Array(MarkdownText.escaped(text).unicodeScalars)
        var decoded = String.UnicodeScalarView()
        var index = 0
        while index < escaped.count {
            let scalar = escaped[index]
            Fuzz.require(scalar.properties.generalCategory != .control, "a control character reaches Markdown")
            if scalar == "\\" {
                Fuzz.require(index + 1 < escaped.count, "a lone backslash ends the Markdown")
                decoded.append(escaped[index + 1])
                index += 2
                continue
            }
            if scalar == "&" {
                // Compared scalar by scalar: as Characters, "&lt;" and a combining mark after it would not match.
                let entity = ["&amp;": "&", "&lt;": "<", "&gt;": ">"].first {
                    escaped[index...].starts(with: $0.key.unicodeScalars)
                }
                Fuzz.require(entity != nil, "a bare & reaches Markdown")
                decoded.append(contentsOf: entity!.value.unicodeScalars)
                index += entity!.key.unicodeScalars.count
                continue
            }
            let punctuation = [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E].contains { $0.contains(scalar.value) }
            Fuzz.require(!punctuation, "\(scalar) reaches Markdown bare")
            decoded.append(scalar)
            index += 1
        }
        let expected = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: " "
            default: scalar
            }
        }))
        Fuzz.require(String(decoded) == expected, "Markdown does not read back as the text")
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

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    OutputEscapingFuzz.check(Fuzz.bytes(data, size))
    return 0
}

#if !FUZZING
@main
enum Replay {
    static func main() { exit(Fuzz.replay(Array(CommandLine.arguments.dropFirst()), OutputEscapingFuzz.check)) }
}
#endif
