import Logging

/// A log handler that escapes every metadata value and every message before the handler it wraps writes them, so
/// that what a request carries (a target, an app, a path, a query with `%0d%0a`) cannot start a line of its own or
/// pass for another key. In the handler, not at each call: Hummingbird's own logs carry the request's path too, and
/// a call site that forgets cannot exist.
public struct EscapingLogHandler: LogHandler {
    private var upstream: any LogHandler

    /// Wraps `upstream`, which writes the escaped lines (swift-log's `StreamLogHandler` for `pinctl serve`).
    public init(_ upstream: any LogHandler) { self.upstream = upstream }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue.mapValues(LogEscaping.value) }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue.map(LogEscaping.provider) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue.map(LogEscaping.value) }
    }

    public func log(event: LogEvent) {
        var escaped = event
        escaped.message = "\(LogEscaping.text(event.message.description))"
        var metadata = event.metadata ?? [:]
        // StreamLogHandler writes an error's description as metadata of its own, unescaped: it goes in here instead.
        if let error = event.error {
            metadata["error.message"] = .string("\(error)")
            metadata["error.type"] = .string(String(reflecting: type(of: error)))
            escaped.error = nil
        }
        escaped.metadata = metadata.isEmpty ? event.metadata : metadata.mapValues(LogEscaping.value)
        upstream.log(event: escaped)
    }
}

/// The one escaping rule of the exporter's log lines (`TIME LEVEL LABEL: key=value key=value [SOURCE] MESSAGE`).
enum LogEscaping {
    /// Control characters (CR and LF among them), C1 controls and bidirectional overrides as visible escapes, and a
    /// backslash doubled so an escape in the input cannot pass for one of ours.
    static func text(_ raw: String) -> String {
        // Most values (request ids, targets, words) are printable ASCII without a backslash: nothing to escape, and
        // building the same string again was most of the cost of Hummingbird's request id on every probe (#22).
        if raw.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) { return raw }
        var result = ""
        for scalar in raw.unicodeScalars {
            switch scalar.value {
            case 0x5C: result += "\\\\"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A value as `text` escapes it, in double quotes (a quote inside escaped) when it is empty or holds what
    /// separates the line's parts: a space, `=`, a quote or a bracket.
    static func quoted(_ raw: String) -> String {
        let escaped = text(raw)
        guard escaped.isEmpty || escaped.contains(where: { " =\"[]".contains($0) }) else { return escaped }
        return "\"" + escaped.replacing("\"", with: "\\\"") + "\""
    }

    static func value(_ value: Logger.Metadata.Value) -> Logger.Metadata.Value {
        switch value {
        case .string(let string): .string(quoted(string))
        case .stringConvertible(let convertible): .string(quoted(convertible.description))
        case .array(let values): .array(values.map(Self.value))
        case .dictionary(let values): .dictionary(values.mapValues(Self.value))
        }
    }

    static func provider(_ provider: Logger.MetadataProvider) -> Logger.MetadataProvider {
        Logger.MetadataProvider { provider.get().mapValues(value) }
    }
}
