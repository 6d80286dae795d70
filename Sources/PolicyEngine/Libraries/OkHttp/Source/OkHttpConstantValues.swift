import TextSyntax

/// What resolving one source file's constants has produced, and the bounds on it (#32): each constant's value once
/// resolved, so that a name used many times, or by constants used many times, is resolved once; the length of any
/// value; the work of all of them together.
///
/// A class: `OkHttpConstants.value(of:)` is asked of one value shared by every argument of the file, and what one
/// argument resolved the next one reuses.
final class OkHttpConstantValues {
    /// The longest value a constant or an argument may hold. A host name is at most 253 bytes and a pin under 100, so
    /// this is far above any real one and far below what a file built to double a value on every line reaches.
    static let maximumLength = 4_096
    /// The most bytes all resolutions of one file may produce together (values and the names of the constants they
    /// came from): thousands of pins, each from constants, stay far below it.
    static let maximumWork = 8 << 20

    /// By constant name: its value, or nil when it has none known from the file.
    var values: [String: OkHttpConstants.Value?] = [:]
    private(set) var work = 0

    /// A name from the file as a message quotes it: a short, safe excerpt.
    static func shown(_ name: String) -> String { UntrustedText.excerpt(name) }

    /// One value being put together from its parts, within the bounds.
    struct Builder {
        private let resolved: OkHttpConstantValues
        /// The constant whose value this is, nil for an argument; the line and the file a refusal names.
        private let owner: (name: String?, line: Int, path: String)
        private var text = ""
        private var length = 0
        /// The constants the value came from, each once, in the order first used.
        private var sources: [String] = []
        private var seen: Set<String> = []

        init(_ resolved: OkHttpConstantValues, owner: (name: String?, line: Int, path: String)) {
            self.resolved = resolved
            self.owner = owner
        }

        var value: OkHttpConstants.Value { OkHttpConstants.Value(text: text, sources: sources) }

        mutating func append(_ part: String) throws(ConfigurationError) {
            let count = part.utf8.count
            guard length + count <= OkHttpConstantValues.maximumLength else {
                let what = owner.name.map { "the constant \(OkHttpConstantValues.shown($0))" } ?? "this value"
                throw refusal("\(what) would hold more than \(OkHttpConstantValues.maximumLength) bytes: a host name "
                    + "or a pin is far shorter, so pinctl stops rather than build it")
            }
            try spend(count)
            text += part
            length += count
        }

        mutating func append(_ value: OkHttpConstants.Value) throws(ConfigurationError) {
            try append(value.text)
            for source in value.sources where !seen.contains(source) {
                try spend(source.utf8.count)
                seen.insert(source)
                sources.append(source)
            }
        }

        private func spend(_ count: Int) throws(ConfigurationError) {
            resolved.work += count
            guard resolved.work <= OkHttpConstantValues.maximumWork else {
                let at = owner.name.map { ", at the constant \(OkHttpConstantValues.shown($0))" } ?? ""
                throw refusal("the constants of this file make more than \(OkHttpConstantValues.maximumWork) bytes "
                    + "of values\(at): far beyond any real file, so pinctl stops rather than go on")
            }
        }

        private func refusal(_ message: String) -> ConfigurationError {
            ConfigurationError(file: owner.path, line: owner.line, message: message)
        }
    }
}
