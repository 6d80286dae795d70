import OpenSSLWrapper
import PolicyEngine

/// Writes a set of files into a directory all or nothing: nothing existing is touched without `force`, and a write
/// that fails half-way leaves the directory as it was.
///
/// The files are written into a staging directory first, on the same file system, and then renamed into place:
/// a new directory is staged beside DIR and renamed to DIR in one step; into an existing DIR each file is renamed
/// over its old version, which is kept (hard-linked) until every rename has succeeded and restored if one fails.
struct OutputDirectory {
    let path: String

    /// Writes `files`; those named in `privateNames` (private keys) are created readable by the owner alone (0600).
    func write(
        _ files: [(name: String, contents: [UInt8])], force: Bool, privateNames: Set<String> = []
    ) throws(InputError) {
        do throws(FileSystemError) {
            switch try FileSystem.kind(of: path) {
            case nil:
                try create(files, privateNames: privateNames)
            case .directory?:
                try replace(files, force: force, privateNames: privateNames)
            case let kind?:
                throw FileSystemError(reason: "exists and is not a directory (it is \(kind.name))")
            }
        } catch {
            throw InputError("--out \(path): \(error.reason)")
        }
    }

    /// A new DIR: staged beside it (its parents created first) and renamed into place.
    private func create(
        _ files: [(name: String, contents: [UInt8])], privateNames: Set<String>
    ) throws(FileSystemError) {
        let parent = Path.parent(of: path)
        try FileSystem.makeDirectory(parent, intermediates: true)
        let staging = try FileSystem.makeTemporaryDirectory(in: parent, prefix: ".pinctl-" + Path.lastComponent(of: path) + "-")
        defer { FileSystem.removeDirectory(staging) }
        for file in files {
            try FileSystem.writeNewFile(Path.join(staging, file.name), file.contents,
                                        mode: privateNames.contains(file.name) ? 0o600 : 0o666)
        }
        // mkdtemp makes the directory private (0700); DIR gets the mode mkdir would have given it.
        try FileSystem.setDefaultDirectoryMode(staging)
        try FileSystem.rename(staging, to: path)
    }

    /// An existing DIR: every clash checked before anything changes, then each file renamed over its old version.
    private func replace(
        _ files: [(name: String, contents: [UInt8])], force: Bool, privateNames: Set<String>
    ) throws(FileSystemError) {
        var existing: [String] = []
        for file in files {
            let destination = Path.join(path, file.name)
            guard let kind = try FileSystem.linkKind(of: destination) else { continue }
            guard kind == .regular || kind == .symbolicLink else {
                throw FileSystemError(reason: "\(destination) is \(kind.name) and cannot be replaced; nothing was written")
            }
            existing.append(destination)
        }
        if !existing.isEmpty, !force {
            throw FileSystemError(reason: "would overwrite \(existing.joined(separator: ", ")); nothing was written "
                + "(use --force to overwrite)")
        }
        // Staged inside DIR (a hidden entry, which pin loading ignores): renames within one directory cannot cross
        // file systems, and DIR's parent need not be writable (`--out .`).
        let staging = try FileSystem.makeTemporaryDirectory(in: path, prefix: ".pinctl-staging-")
        defer { FileSystem.removeDirectory(staging) }
        for file in files {
            try FileSystem.writeNewFile(Path.join(staging, file.name), file.contents,
                                        mode: privateNames.contains(file.name) ? 0o600 : 0o666)
        }
        var replaced: [(destination: String, backup: String?)] = []
        do throws(FileSystemError) {
            for file in files {
                let destination = Path.join(path, file.name)
                var backup: String?
                if existing.contains(destination) {
                    backup = Path.join(staging, ".old-" + file.name)
                    try FileSystem.link(destination, to: backup!)
                }
                replaced.append((destination, backup))
                try FileSystem.rename(Path.join(staging, file.name), to: destination)
            }
        } catch {
            for entry in replaced.reversed() {
                if let backup = entry.backup {
                    try? FileSystem.rename(backup, to: entry.destination)
                } else {
                    FileSystem.remove(entry.destination)
                }
            }
            throw FileSystemError(reason: "\(error.reason); every file was restored as it was")
        }
    }
}
