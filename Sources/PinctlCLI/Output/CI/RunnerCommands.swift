/// GitHub Actions' workflow commands, as the runner finds them in every line a step prints, whether or not pinctl
/// knows it runs there (GITHUB_ACTIONS): text from outside must never form one. actions/runner,
/// src/Runner.Worker/ActionCommandManager.cs, `TryProcessCommand`:
///
///     if (!ActionCommand.TryParseV2(input, _registeredCommands, out actionCommand) &&
///         !ActionCommand.TryParse(input, _registeredCommands, out actionCommand))
///
/// and src/Runner.Common/ActionCommand.cs, the legacy form ANYWHERE in the line (`Prefix = "##["`):
///
///     // Get the index of the prefix.
///     int prefixIndex = message.IndexOf(Prefix);
///
/// and the current form at the start of the line after white space (`_commandKey = "::"`):
///
///     message = message.TrimStart();
///     if (!message.StartsWith(_commandKey))
///
/// So a certificate named `api ##[stop-commands]tok1` would switch off every later `::error` pinctl prints, and
/// `##[error]…` would forge one. `IndexOf(string)` and `StartsWith(string)` compare by the current culture (ICU),
/// which skips default-ignorable characters such as U+00AD, so those are skipped here too.
enum RunnerCommands {
    /// `text` with each `##[` (ignorable characters between its three allowed) and each `::` that begins a line after
    /// white space spelled so the runner sees neither: the first `#` as `hash`, the first `:` as `colon`, which each
    /// output kind chooses (`\x23` on a terminal, `\u0023` in JSON, `&#35;` in XML). Idempotent when the spellings
    /// start with neither character.
    static func neutralised(_ text: String, hash: String, colon: String) -> String {
        guard mayHoldCommand(text) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var lineStart = true
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            defer { index += 1 }
            if scalar == "\n" || scalar == "\r" {
                lineStart = true
                result.append(scalar)
                continue
            }
            if lineStart, scalar == ":", next(after: index, in: scalars) == ":" {
                result += colon.unicodeScalars
                lineStart = false
                continue
            }
            if lineStart, !isBlank(scalar) { lineStart = false }
            if scalar == "#", let second = nextIndex(after: index, in: scalars), scalars[second] == "#",
               next(after: second, in: scalars) == "["
            {
                result += hash.unicodeScalars
                continue
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// Whether `text` may hold a command: a `#` and a `[`, or a `:` followed by another with only ignorable
    /// characters between. Without either there is nothing to spell otherwise, and the text is most of what is
    /// printed, so it is not copied scalar by scalar.
    private static func mayHoldCommand(_ text: String) -> Bool {
        var hash = false
        var bracket = false
        var afterColon = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case ":":
                if afterColon { return true }
                afterColon = true
                continue
            case "#": hash = true
            case "[": bracket = true
            default:
                if scalar.isASCII || !isIgnorable(scalar) { break }
                continue
            }
            afterColon = false
        }
        return hash && bracket
    }

    /// White space as .NET's `TrimStart` removes it (Unicode's White_Space, as `Char.IsWhiteSpace`), or a character
    /// ICU's comparison skips.
    private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || isIgnorable(scalar)
    }

    private static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isDefaultIgnorableCodePoint }

    /// The index of the first character after `index` that is not ignorable.
    private static func nextIndex(after index: Int, in scalars: [Unicode.Scalar]) -> Int? {
        var next = index + 1
        while next < scalars.count, isIgnorable(scalars[next]) { next += 1 }
        return next < scalars.count ? next : nil
    }

    private static func next(after index: Int, in scalars: [Unicode.Scalar]) -> Unicode.Scalar? {
        nextIndex(after: index, in: scalars).map { scalars[$0] }
    }
}
