import FileAccess
import PolicyEngine

/// Writes one file whole or not at all: staged beside it, then linked into place (which fails if the file exists)
/// or, with `force`, renamed over it.
struct OutputFile {
    let path: String
    /// The option that named the file, for messages.
    var option = "--out"

    func write(_ contents: [UInt8], force: Bool) throws(InputError) {
        do throws(FileSystemError) {
            if let kind = try FileSystem.linkKind(of: path) {
                guard kind == .regular || kind == .symbolicLink else {
                    throw FileSystemError(reason: "exists and is \(kind.name), not a file")
                }
                guard force else {
                    throw FileSystemError(reason: "exists; nothing was written (use --force to overwrite)")
                }
            }
            let directory = Path.parent(of: path)
            try FileSystem.makeDirectory(directory, intermediates: true)
            let staging = try FileSystem.makeTemporaryDirectory(in: directory, prefix: ".pinctl-")
            defer { FileSystem.removeDirectory(staging) }
            let staged = Path.join(staging, Path.lastComponent(of: path))
            try FileSystem.writeNewFile(staged, contents)
            if force {
                try FileSystem.rename(staged, to: path)
            } else {
                // link(2) refuses an existing name: a file created meanwhile is never overwritten.
                try FileSystem.link(staged, to: path)
            }
        } catch {
            throw InputError("\(option) \(path): \(error.reason)")
        }
    }
}
