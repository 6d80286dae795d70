import Foundation

/// A fresh directory under the system's temporary directory, removed when the test is done with it.
public struct TemporaryDirectory: Sendable {
    public let path: String

    /// Runs `body` with a new empty directory and removes the directory afterwards, whatever happens.
    public static func with<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("pinctl-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(TemporaryDirectory(path: path))
    }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Writes `bytes` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// Writes UTF-8 `text` to `name` and returns its path.
    @discardableResult
    public func write(_ name: String, text: String) throws -> String {
        try write(name, bytes: Array(text.utf8))
    }

    /// Creates the subdirectory `name` and returns its path.
    @discardableResult
    public func makeDirectory(_ name: String) throws -> String {
        let directory = path(name)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }
}

extension Certs {
    /// The raw bytes of a file in `certs/`.
    public static func bytes(_ name: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            fatalError("fixture \(name) unreadable")
        }
        return [UInt8](data)
    }
}
