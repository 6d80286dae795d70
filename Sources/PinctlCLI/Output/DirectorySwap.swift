import FileAccess

/// Replaces the contents of an existing directory in one step: a complete new directory is staged beside it — the new
/// files, and a hard link to every entry kept — then exchanged with it (`renameat2(RENAME_EXCHANGE)`), and the old
/// one emptied and removed. A reader of `--pins DIR` sees the old set or the new one, never a mix, and never the two.
enum DirectorySwap {
    /// Whether DIR was replaced; false, with nothing changed, where the swap cannot be made and the caller replaces
    /// file by file: DIR is `.`, `..` or the working directory (a shell inside it would be left in the removed old
    /// one), a symbolic link (the link would be replaced, not the directory it names), it holds a subdirectory to
    /// keep (a directory cannot be linked), its parent cannot be written, a kept entry cannot be linked
    /// (`fs.protected_hardlinks`), or the file system cannot exchange.
    /// `listed` is every entry DIR held when the new set was planned; `kept` those of them the new DIR keeps.
    static func replace(
        _ path: String, with files: [(name: String, contents: [UInt8])], listed: [String], keeping kept: [String],
        privateNames: Set<String>
    ) throws(FileSystemError) -> Bool {
        let name = Path.lastComponent(of: path)
        guard name != ".", name != "..", !FileSystem.sameFile(path, ".") else { return false }
        // Without a trailing slash, which would make the calls below follow a symbolic link.
        let path = Path.join(Path.parent(of: path), name)
        guard (try? FileSystem.linkKind(of: path)) == .directory else { return false }
        for entry in kept where (try? FileSystem.linkKind(of: Path.join(path, entry))) == .directory { return false }
        guard let staging = try? FileSystem.makeTemporaryDirectory(in: Path.parent(of: path),
                                                                   prefix: ".pinctl-" + name + "-")
        else { return false }
        do throws(FileSystemError) {
            try OutputDirectory.stage(files, in: staging, privateNames: privateNames)
            for entry in kept { try FileSystem.link(Path.join(path, entry), to: Path.join(staging, entry)) }
            // mkdtemp makes the directory private (0700): the new DIR keeps the old one's mode.
            try FileSystem.setPermissions(staging, try FileSystem.permissions(of: path))
            try FileSystem.exchange(staging, path)
        } catch {
            FileSystem.removeDirectory(staging)
            return false
        }
        try removeOld(staging, listed: Set(listed), into: path)
        return true
    }

    /// Empties and removes the old directory, now at `old`. What was listed is linked into the new DIR, replaced or
    /// removed; an entry added while pinctl wrote is moved into the new DIR rather than lost.
    private static func removeOld(_ old: String, listed: Set<String>, into path: String) throws(FileSystemError) {
        let names = (try? FileSystem.entries(ofDirectory: old)) ?? []
        var stranded: [String] = []
        for name in names {
            let entry = Path.join(old, name)
            if listed.contains(name) {
                FileSystem.remove(entry)
            } else if (try? FileSystem.rename(entry, to: Path.join(path, name))) == nil {
                stranded.append(name)
            }
        }
        FileSystem.remove(old)
        guard stranded.isEmpty else {
            throw FileSystemError(reason: "the new files are in place, but \(old) keeps "
                + stranded.joined(separator: ", ") + " (added while pinctl wrote): move them back by hand")
        }
    }
}
