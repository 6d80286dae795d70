/// Reads one platform's membership file (`android.txt`): blocks of `version`, `label`, `date`, `source` and `root`
/// lines, `#` comments and blank lines between them (docs/platform-stores.md).
enum StoreSnapshotFile {
    /// The versions `text` records for `platform`; a line it cannot read stops it at that line (`path:line:`).
    static func parse(_ text: String, platform: String, path: String) throws(StoreSnapshotError) -> [StoreSnapshot] {
        var snapshots: [StoreSnapshot] = []
        var current: Block?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty || line.hasPrefix("#") { continue }
            let number = index + 1
            guard let space = line.firstIndex(of: " ") else {
                throw .malformed(path, line: number, "expected KEY VALUE, e.g. `version 24`")
            }
            let key = line[..<space]
            let value = String(line[line.index(after: space)...])
            if key == "version" {
                if let block = current { snapshots.append(try block.snapshot(platform: platform, path: path)) }
                guard let version = PlatformVersion(value) else {
                    throw .malformed(path, line: number, "version \(value.debugDescription) is not dotted numbers")
                }
                guard !snapshots.contains(where: { $0.version == version }) else {
                    throw .malformed(path, line: number, "version \(value) is recorded twice")
                }
                current = Block(version: version, line: number)
                continue
            }
            guard current != nil else {
                throw .malformed(path, line: number, "`\(key)` before the first `version` line")
            }
            switch key {
            case "label": current?.label = value
            case "date": current?.date = value
            case "source": current?.source = value
            case "root":
                guard isRootID(value) else {
                    throw .malformed(path, line: number, "root id \(value.debugDescription) is not a SHA-256 in hex")
                }
                current?.roots.insert(value)
            default:
                throw .malformed(path, line: number,
                                 "unknown key `\(key)` (expected version, label, date, source or root)")
            }
        }
        if let block = current { snapshots.append(try block.snapshot(platform: platform, path: path)) }
        return snapshots.sorted { $0.version < $1.version }
    }

    /// 64 lowercase hex digits, optionally `-` and 8 more (a second certificate for the same key); nothing that could
    /// name a path outside `roots/`.
    static func isRootID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let lengths = parts.map(\.count)
        guard lengths == [64] || lengths == [64, 8] else { return false }
        return text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
    }

    private struct Block {
        let version: PlatformVersion
        let line: Int
        var label: String?
        var date: String?
        var source: String?
        var roots: Set<String> = []

        func snapshot(platform: String, path: String) throws(StoreSnapshotError) -> StoreSnapshot {
            guard let date, let source else {
                throw .malformed(path, line: line, "version \(version) has no \(date == nil ? "date" : "source") line")
            }
            return StoreSnapshot(platform: platform, version: version, label: label ?? "\(platform) \(version)",
                                 date: date, source: source, rootIDs: roots)
        }
    }
}
