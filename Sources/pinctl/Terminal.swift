import Foundation

/// Where output goes, and whether it may be coloured.
enum Terminal {
    static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1
    static let colourAllowed = ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        && ProcessInfo.processInfo.environment["TERM"] != "dumb"

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message.hasSuffix("\n") ? message : message + "\n").utf8))
    }

    /// `pinctl: message`, the one prefix every error line carries.
    static func error(_ message: String) {
        printError("pinctl: " + message)
    }

    enum Colour: String {
        case red = "31", green = "32", yellow = "33", bold = "1", dim = "2"
    }

    /// `text` in `colour` when stdout is a terminal that allows colour.
    static func paint(_ text: String, _ colour: Colour, stream: Int32 = STDOUT_FILENO) -> String {
        let terminal = stream == STDOUT_FILENO ? stdoutIsTerminal : stderrIsTerminal
        guard terminal, colourAllowed else { return text }
        return "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m"
    }
}
