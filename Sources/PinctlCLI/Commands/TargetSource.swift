import Checking
import FileAccess
import PolicyEngine
import TextSyntax

/// One entry of `check`'s input: a target to check, or a line of `--targets-from` that cannot be one.
enum TargetInput: Sendable {
    case target(Target)
    /// An input error in its place in the order: `FILE:LINE: target …: why`, or why the list could not be read on.
    case unreadable(text: String?, message: String)
}

/// The command line's targets, then those of `--targets-from`, read only as the runner asks for them.
// @unchecked Sendable: ConcurrentRunner calls `next()` on one thread at a time.
final class TargetSource: @unchecked Sendable {
    private var given: IndexingIterator<[Target]>
    private let list: LineInput?
    private let listName: String
    private var listEnded = false

    /// The targets given up front; nil when a list is read as well, whose length is known only at its end.
    let knownCount: Int?

    init(_ targets: [Target], list: LineInput?, listName: String) {
        given = targets.makeIterator()
        self.list = list
        self.listName = listName
        knownCount = list == nil ? targets.count : nil
    }

    /// `--targets-from PATH` opened (`-` is standard input), or why it cannot be read.
    static func open(_ path: String) throws(InputError) -> (LineInput, name: String) {
        if path == "-" { return (LineInput(), "<stdin>") }
        do {
            return (try LineInput(path: path), path)
        } catch {
            throw InputError("--targets-from \(path): \(error.reason)")
        }
    }

    func next() -> TargetInput? {
        if let target = given.next() { return .target(target) }
        guard let list, !listEnded else { return nil }
        while true {
            let line: LineInput.Line
            do {
                guard let read = try list.next() else { return nil }
                line = read
            } catch {
                // Nothing after an unreadable stretch can be trusted to be the list as written.
                listEnded = true
                return .unreadable(text: nil, message: "\(listName): \(error.reason)")
            }
            let text = Self.entry(line.text)
            guard !text.isEmpty else { continue }
            do throws(InputError) {
                return .target(try Target(parsing: text, excerpted: true))
            } catch {
                // The line is named by its number and an excerpt: a list can be any file, a credentials file too.
                return .unreadable(text: UntrustedText.excerpt(text),
                                   message: "\(listName):\(line.number): \(error.description)")
            }
        }
    }

    /// The line without its comment and surrounding blanks; empty when nothing is left.
    private static func entry(_ line: String) -> String {
        let uncommented = line.firstIndex(of: "#").map { line[..<$0] } ?? line[...]
        return uncommented.trimming { $0 == " " || $0 == "\t" }
    }
}
