import FileAccess

/// A configuration file that pinctl cannot use, with the place at fault: the file, the line (and column) and the key
/// path, e.g. `pinctl.yaml:12:7: apps[1].library: unknown library 'okhtp'`.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let column: Int?
    /// Where in the document: `apps[1].policy.pins['**.example.com'][0]`, or an XML element path.
    public let keyPath: String?
    public let message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, keyPath: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
    }

    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return place + ": " + (keyPath.map { $0.isEmpty ? "" : $0 + ": " } ?? "") + message
    }

    /// The bytes of the configuration file at `path`; why it cannot be read is an error naming the file.
    static func contents(of path: String) throws(ConfigurationError) -> [UInt8] {
        do {
            return try FileInput.read(path)
        } catch {
            throw ConfigurationError(file: path, message: error.reason)
        }
    }
}
