internal import CLibArchive

/// A zip archive a build ships (an IPA, an APK), read by libarchive from bytes in memory: every entry's name, and the
/// contents of the entries the caller asks for. Nothing is written to disk, so an entry's name is only ever data
/// (`../x` names nothing outside). Bounded against bombs: the number of entries, the length of a name, and the bytes
/// an entry and all of them inflate to are counted as they are read, whatever the archive declares.
public struct ZipArchive: Sendable {
    public struct Limits: Sendable {
        public var entries = 200_000
        public var nameBytes = 4096
        /// Bytes one entry asked for may inflate to.
        public var entryBytes = 64 << 20
        /// Bytes all the entries asked for may inflate to.
        public var totalBytes = 256 << 20

        public init() {}
    }

    public struct Entry: Sendable {
        public let name: String
        public let isDirectory: Bool
    }

    /// Every entry, in the archive's order.
    public let entries: [Entry]
    /// The contents of the entries asked for, by name.
    public let contents: [String: [UInt8]]

    /// Reads the archive `bytes` (`label` names it in errors), keeping the contents of the regular entries `wanted`
    /// picks by name.
    public static func read(_ bytes: [UInt8], label: String, limits: Limits = Limits(),
                            wanting wanted: (String) -> Bool) throws(ArchiveError) -> ZipArchive
    {
        if let failure = CLibArchiveOpen() { throw ArchiveError(label, reason: String(cString: failure)) }
        guard let archive = archive_read_new() else { throw ArchiveError(label, reason: "libarchive is out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_format_zip(archive)
        var entries: [Entry] = []
        var contents: [String: [UInt8]] = [:]
        var names: Set<String> = []
        var total = 0
        let result: Result<Void, ArchiveError> = bytes.withUnsafeBytes { buffer in
            func failure(_ entry: String?, _ fallback: String) -> Result<Void, ArchiveError> {
                let said = archive_error_string(archive).map { String(cString: $0) }
                return .failure(ArchiveError(label, entry: entry, reason: said ?? fallback))
            }
            func notZip() -> Result<Void, ArchiveError> {
                let said = archive_error_string(archive).map { " (libarchive: \(String(cString: $0)))" }
                return .failure(ArchiveError(label, reason: "not a zip archive" + (said ?? "")))
            }
            guard archive_read_open_memory(archive, buffer.baseAddress, buffer.count) == ARCHIVE_OK else {
                return notZip()
            }
            while true {
                var header: OpaquePointer?
                let status = archive_read_next_header(archive, &header)
                if status == ARCHIVE_EOF { return .success(()) }
                guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let header else {
                    guard let last = entries.last else { return notZip() }
                    return failure("after \(last.name)", "an entry that cannot be read")
                }
                guard entries.count < limits.entries else {
                    return .failure(ArchiveError(label, reason: "more than \(limits.entries) entries"))
                }
                guard let raw = archive_entry_pathname_utf8(header) ?? archive_entry_pathname(header) else {
                    return .failure(ArchiveError(label, entry: "#\(entries.count + 1)",
                                                 reason: "its name is not UTF-8"))
                }
                let name = String(cString: raw)
                let length = name.utf8.count
                guard length <= limits.nameBytes else {
                    return .failure(ArchiveError(label, entry: "#\(entries.count + 1)",
                                                 reason: "a name of \(length) bytes, more than \(limits.nameBytes)"))
                }
                guard names.insert(name).inserted else {
                    // Two entries of one name: which one a device reads is not for pinctl to guess.
                    return .failure(ArchiveError(label, entry: name, reason: "is in the archive twice"))
                }
                entries.append(Entry(name: name, isDirectory: CLibArchiveShim_isDirectory(header) != 0))
                guard CLibArchiveShim_isRegular(header) != 0, wanted(name) else { continue }
                var data: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                while true {
                    let read = chunk.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                    if read == 0 { break }
                    guard read > 0 else { return failure(name, "its data cannot be read") }
                    data += chunk[..<read]
                    guard data.count <= limits.entryBytes else {
                        return .failure(ArchiveError(label, entry: name, reason: "inflates to more than "
                            + "\(limits.entryBytes) bytes"))
                    }
                    total += read
                    guard total <= limits.totalBytes else {
                        return .failure(ArchiveError(label, entry: name, reason: "the entries read inflate to more "
                            + "than \(limits.totalBytes) bytes"))
                    }
                }
                contents[name] = data
            }
        }
        try result.get()
        return ZipArchive(entries: entries, contents: contents)
    }
}

/// Why an archive cannot be read: the archive, the entry when one is at fault, and the reason.
public struct ArchiveError: Error, Sendable, CustomStringConvertible {
    public let archive: String
    public let entry: String?
    public let reason: String

    public init(_ archive: String, entry: String? = nil, reason: String) {
        self.archive = archive
        self.entry = entry
        self.reason = reason
    }

    public var description: String { archive + (entry.map { "!" + $0 } ?? "") + ": " + reason }
}
