import FileAccess
import PolicyEngine

/// Writes a set of files into a directory all or nothing: nothing existing is touched without `force`, a write that
/// fails half-way leaves the directory as it was, and SIGINT, SIGTERM or SIGHUP wait until it is over (the staging
/// directory removed on every path).
///
/// A new DIR is staged beside it and renamed into place. An existing DIR is replaced in one step where it can be
/// (`DirectorySwap`); where it cannot, file by file, each old version kept until every rename has succeeded and
/// restored if one fails.
struct OutputDirectory {
    let path: String
    /// The names of the set this writer owns, besides those it writes this time: replacing removes them, so no file of
    /// an earlier set outlives the new one. Anything else in DIR is the user's and left alone.
    var owns: (String) -> Bool = { _ in false }

    /// Writes `files`; those named in `privateNames` (private keys) are created readable by the owner alone (0600).
    func write(
        _ files: [(name: String, contents: [UInt8])], force: Bool, privateNames: Set<String> = []
    ) throws(InputError) {
        do throws(FileSystemError) {
            try DeferredSignals.run { () throws(FileSystemError) in
                switch try FileSystem.kind(of: path) {
                case nil:
                    try create(files, privateNames: privateNames)
                case .directory?:
                    try replace(files, force: force, privateNames: privateNames)
                case let kind?:
                    throw FileSystemError(reason: "exists and is not a directory (it is \(kind.name))")
                }
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
        try Self.stage(files, in: staging, privateNames: privateNames)
        // mkdtemp makes the directory private (0700); DIR gets the mode mkdir would have given it.
        try FileSystem.setDefaultDirectoryMode(staging)
        try FileSystem.rename(staging, to: path)
    }

    /// An existing DIR: every clash checked before anything changes, then the new set swapped in.
    private func replace(
        _ files: [(name: String, contents: [UInt8])], force: Bool, privateNames: Set<String>
    ) throws(FileSystemError) {
        let entries = try FileSystem.entries(ofDirectory: path)
        let written = Set(files.map(\.name))
        var overwritten: [String] = []
        for name in files.map(\.name) where entries.contains(name) {
            let destination = Path.join(path, name)
            let kind = try FileSystem.linkKind(of: destination)
            guard kind == .regular || kind == .symbolicLink else {
                throw FileSystemError(reason: "\(destination) is \(kind?.name ?? "gone") and cannot be replaced; "
                    + "nothing was written")
            }
            overwritten.append(name)
        }
        var stale: [String] = []
        // A directory with an owned name is not a file of the set (pin loading skips subdirectories): left alone.
        for name in entries where !written.contains(name) && owns(name) {
            if try FileSystem.linkKind(of: Path.join(path, name)) != .directory { stale.append(name) }
        }
        if !(overwritten.isEmpty && stale.isEmpty), !force {
            let named = (overwritten + stale).map { Path.join(path, $0) }.joined(separator: ", ")
            throw FileSystemError(reason: "would \(stale.isEmpty ? "overwrite" : "replace") \(named); nothing was "
                + "written (use --force to overwrite)")
        }
        let kept = entries.filter { !written.contains($0) && !stale.contains($0) }
        if try DirectorySwap.replace(path, with: files, listed: entries, keeping: kept, privateNames: privateNames) {
            return
        }
        try replaceInPlace(files, overwritten: overwritten, stale: stale, privateNames: privateNames)
    }

    /// Staged inside DIR (a hidden entry, which pin loading ignores): renames within one directory cannot cross file
    /// systems, and DIR's parent need not be writable (`--out .`). Each old file is kept in the staging directory
    /// until every rename has succeeded.
    private func replaceInPlace(
        _ files: [(name: String, contents: [UInt8])], overwritten: [String], stale: [String], privateNames: Set<String>
    ) throws(FileSystemError) {
        let staging = try FileSystem.makeTemporaryDirectory(in: path, prefix: ".pinctl-staging-")
        defer { FileSystem.removeDirectory(staging) }
        try Self.stage(files, in: staging, privateNames: privateNames)
        var done: [(destination: String, backup: String?)] = []
        do throws(FileSystemError) {
            for file in files {
                let destination = Path.join(path, file.name)
                var backup: String?
                if overwritten.contains(file.name) {
                    backup = Path.join(staging, ".old-" + file.name)
                    try FileSystem.link(destination, to: backup!)
                }
                done.append((destination, backup))
                try FileSystem.rename(Path.join(staging, file.name), to: destination)
            }
            for name in stale {
                let backup = Path.join(staging, ".old-" + name)
                try FileSystem.rename(Path.join(path, name), to: backup)
                done.append((Path.join(path, name), backup))
            }
        } catch {
            for entry in done.reversed() {
                if let backup = entry.backup {
                    try? FileSystem.rename(backup, to: entry.destination)
                } else {
                    FileSystem.remove(entry.destination)
                }
            }
            throw FileSystemError(reason: "\(error.reason); every file was restored as it was")
        }
    }

    static func stage(
        _ files: [(name: String, contents: [UInt8])], in staging: String, privateNames: Set<String>
    ) throws(FileSystemError) {
        for file in files {
            try FileSystem.writeNewFile(Path.join(staging, file.name), file.contents,
                                        mode: privateNames.contains(file.name) ? 0o600 : 0o666)
        }
    }
}
