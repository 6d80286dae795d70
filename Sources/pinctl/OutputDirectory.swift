import Foundation
import PolicyEngine

/// Writes a set of files into a directory all or nothing: nothing existing is touched without `force`.
struct OutputDirectory {
    let path: String

    func write(_ files: [(name: String, contents: Data)], force: Bool) throws(InputError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw InputError("--out \(path): exists and is not a directory") }
        } else {
            do {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw InputError("--out \(path): cannot create the directory: \(error.localizedDescription)")
            }
        }
        let existing = files.map { (path as NSString).appendingPathComponent($0.name) }.filter { manager.fileExists(atPath: $0) }
        if !existing.isEmpty, !force {
            throw InputError("--out \(path): would overwrite \(existing.joined(separator: ", ")); nothing was written "
                + "(use --force to overwrite)")
        }
        for file in files {
            let destination = URL(fileURLWithPath: (path as NSString).appendingPathComponent(file.name))
            do {
                try file.contents.write(to: destination, options: .atomic)
            } catch {
                throw InputError("\(destination.path): cannot write: \(error.localizedDescription)")
            }
        }
    }
}
