/// Where a pin is written, so a message (and `lint`) can send a person to it.
public struct PinSource: Sendable, Hashable, CustomStringConvertible {
    public enum Place: Sendable, Hashable {
        /// A line of a `.pin` file, or the Nth certificate of a certificate file (nil when it holds one).
        case file(path: String, line: Int?, entry: Int?)
        /// A command-line argument such as `--pin`, and its position among several.
        case argument(name: String, index: Int?)
        /// A key of a configuration file: a pinctl.yaml, an Info.plist, a network_security_config.xml.
        case configuration(path: String, line: Int?, keyPath: String)
    }

    public let place: Place

    public init(_ place: Place) { self.place = place }

    /// `pins/api.pin:3`, `root.pem#2`, `--pin #2`, `pinctl.yaml:14 (apps[0].policy.pins[1])`.
    public var description: String {
        switch place {
        case .file(let path, let line, let entry):
            if let line { return "\(path):\(line)" }
            if let entry { return "\(path)#\(entry)" }
            return path
        case .argument(let name, let index):
            return index.map { "\(name) #\($0)" } ?? name
        case .configuration(let path, let line, let keyPath):
            return (line.map { "\(path):\($0)" } ?? path) + (keyPath.isEmpty ? "" : " (\(keyPath))")
        }
    }
}
