import Glibc
import TextSyntax

/// Reads one platform's membership file (`android.txt`): blocks of `version`, `label`, `date`, `source` and `root`
/// lines, `#` comments and blank lines between them (docs/platform-stores.md).
///
/// `--stores` can name any directory, so the file can be anything (a token file, `/proc/self/environ`): an error
/// names the file, the line and what was expected there, and quotes nothing of the line but a version it has read.
/// Size, line length, versions and roots are bounded, and the work is linear in the file.
package enum StoreSnapshotFile {
    /// android.txt of 23 API levels takes 234 kB.
    static let maximumSize = 4 << 20
    /// A root line takes 70 bytes, a source line about 130.
    static let maximumLineLength = 1024
    static let maximumVersions = 1000
    static let maximumRoots = 10_000
    /// The most characters of a label or a source.
    static let maximumTextLength = 256

    static let keys = "version, label, date, source or root"

    /// The versions `bytes` records for `platform`; a line it cannot read stops it at that line (`path:line:`).
    package static func parse(_ bytes: [UInt8], platform: String, path: String) throws(StoreSnapshotError)
        -> [StoreSnapshot] {
        try read(bytes, platform: platform, path: path).versions
    }

    /// The versions `bytes` records for `platform`, and every root id any of them lists: the union a run on every
    /// version needs, had here from the few ids each version adds rather than by hashing every version's ids again.
    package static func read(_ bytes: [UInt8], platform: String, path: String) throws(StoreSnapshotError)
        -> (versions: [StoreSnapshot], allRootIDs: Set<String>) {
        guard bytes.count <= maximumSize else {
            throw StoreSnapshotError("\(path): larger than \(maximumSize >> 20) MiB, which no snapshot comes near; "
                + "rebuild it with scripts/build-stores.sh")
        }
        if let line = UntrustedText.nulByteLine(in: bytes) {
            throw .malformed(path, line: line, UntrustedText.nulByteReason)
        }
        var snapshots: [StoreSnapshot] = []
        var seen: [PlatformVersion: Int] = [:]
        var current: Block?
        var previous: Block.Roots?
        var all: Set<String> = []
        func finish(_ block: Block) throws(StoreSnapshotError) {
            let roots = block.roots(in: bytes, after: previous)
            snapshots.append(try block.snapshot(platform: platform, path: path, roots: roots.set))
            if let added = roots.added {
                for id in added { all.insert(id) }
            } else {
                all.formUnion(roots.set)
            }
            previous = roots
        }
        var number = 0
        var start = 0
        // Lines are read as bytes: most are `root` lines, checked as bytes and made a String once (the file of every
        // Android level is read whenever a platform is named, so this is most of what naming one costs).
        while start <= bytes.count {
            let end = lineEnd(in: bytes, from: start)
            defer { start = end + 1 }
            number += 1
            let body = bytes[start..<(end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end)]
            guard body.count <= maximumLineLength else {
                throw .malformed(path, line: number, "a line longer than \(maximumLineLength) bytes")
            }
            if let id = rootID(inLine: body) {
                guard current != nil else {
                    throw .malformed(path, line: number, "root before the first version line")
                }
                try current?.add(root: id, in: bytes, line: number, path: path)
                continue
            }
            guard let line = String(validating: body, as: UTF8.self) else {
                throw .malformed(path, line: number, "not UTF-8 text")
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let space = line.firstIndex(of: " "), let key = Key(rawValue: String(line[..<space])) else {
                throw .malformed(path, line: number, "expected `KEY VALUE`, KEY one of \(keys), a # comment or a "
                    + "blank line")
            }
            let value = String(line[line.index(after: space)...])
            if key == .version {
                if let block = current { try finish(block) }
                guard let version = PlatformVersion(value) else {
                    throw .malformed(path, line: number, "a version is dotted decimal numbers (24, 10.15, 20230311)")
                }
                if let first = seen[version] {
                    throw .malformed(path, line: number, "version \(version) again (first on line \(first))")
                }
                guard seen.count < maximumVersions else {
                    throw .malformed(path, line: number, "more than \(maximumVersions) versions")
                }
                seen[version] = number
                current = Block(version: version, line: number)
                continue
            }
            guard current != nil else {
                throw .malformed(path, line: number, "\(key.rawValue) before the first version line")
            }
            try current?.take(key, value, line: number, path: path)
        }
        if let block = current { try finish(block) }
        // A file of no version would judge nothing and say nothing: a run naming the platform would pass.
        guard !snapshots.isEmpty else {
            throw StoreSnapshotError("\(path): records no version (no `version` line): an empty or cut membership "
                + "file; rebuild it with scripts/build-stores.sh")
        }
        return (snapshots.sorted { $0.version < $1.version }, all)
    }

    private static let newline = UInt8(ascii: "\n")

    /// Where the line from `start` ends: its newline, or the end of `bytes`. Searched for, not walked to: a loop
    /// byte by byte was a fifth of reading every platform's file.
    private static func lineEnd(in bytes: [UInt8], from start: Int) -> Int {
        ByteSearch.firstIndex(of: newline, in: bytes, from: start) ?? bytes.count
    }

    private static let rootPrefix = Array("root ".utf8)

    /// Where the id of a well-formed `root ID` line lies in the file; nil for any other line, which the general path
    /// reads (and refuses).
    private static func rootID(inLine line: ArraySlice<UInt8>) -> Range<Int>? {
        guard line.count > rootPrefix.count, line.starts(with: rootPrefix) else { return nil }
        let id = line.dropFirst(rootPrefix.count)
        guard isRootID(bytes: id) else { return nil }
        return id.indices
    }

    /// 64 lowercase hex digits, optionally `-` and 8 more (a second certificate for the same key); nothing that could
    /// name a path outside `roots/`.
    static func isRootID(_ text: some StringProtocol) -> Bool {
        isRootID(bytes: ArraySlice(text.utf8))
    }

    package static func isRootID(bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 64 || bytes.count == 73 else { return false }
        // Eight bytes at a time, over the buffer: every root line of every membership file read comes here (6,000
        // for every platform), and a loop byte by byte was a fifth of reading them.
        return bytes.withUnsafeBytes { buffer in
            guard (0..<8).allSatisfy({ isLowercaseHex(buffer.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) })
            else { return false }
            guard buffer.count == 73 else { return true }
            return buffer[64] == UInt8(ascii: "-")
                && isLowercaseHex(buffer.loadUnaligned(fromByteOffset: 65, as: UInt64.self))
        }
    }

    /// Whether each of the eight bytes of `word` is `0`–`9` or `a`–`f`. A byte below 0x80 plus 0x80 − LOW has its
    /// top bit set exactly when the byte is LOW or more, and no sum carries into the next byte (0x7F + 0x50 < 0x100).
    private static func isLowercaseHex(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        guard word & tops == 0 else { return false }
        func atLeast(_ low: UInt64) -> UInt64 { (word &+ ones &* (0x80 - low)) & tops }
        let digit = atLeast(0x30) & ~atLeast(0x3A)
        let letter = atLeast(0x61) & ~atLeast(0x67)
        return digit | letter == tops
    }

    /// `YYYY-MM-DD`, a day that exists (no 30 February; 29 February in leap years only).
    static func isDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2D, bytes[7] == 0x2D else { return false }
        let digits = bytes[0..<4] + bytes[5..<7] + bytes[8..<10]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
        let year = bytes[0..<4].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let month = Int(bytes[5] - 0x30) * 10 + Int(bytes[6] - 0x30)
        let day = Int(bytes[8] - 0x30) * 10 + Int(bytes[9] - 0x30)
        guard (1...12).contains(month) else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    private enum Key: String {
        case version, label, date, source, root
    }

    private struct Block {
        let version: PlatformVersion
        let line: Int
        var label: String?
        var date: String?
        var source: String?
        /// Where each root id lies in the file, in the order listed.
        var ids: [Range<Int>] = []
        /// Whether each id is greater than the one before, as bytes: true of every file build-stores.sh writes.
        var ascending = true

        init(version: PlatformVersion, line: Int) {
            self.version = version
            self.line = line
        }

        mutating func take(_ key: Key, _ value: String, line number: Int, path: String) throws(StoreSnapshotError) {
            func fail(_ reason: String) -> StoreSnapshotError {
                .malformed(path, line: number, "version \(version): \(reason)")
            }
            switch key {
            case .version:
                return
            case .root:
                // A well-formed root line never comes here (`rootID(inLine:)`).
                throw fail("a root id is 64 lowercase hex digits, optionally `-` and 8 more")
            case .date:
                guard date == nil else { throw fail("a second date line") }
                guard StoreSnapshotFile.isDay(value) else { throw fail("the date is not a day YYYY-MM-DD") }
                date = value
            case .label, .source:
                guard (key == .label ? label : source) == nil else { throw fail("a second \(key.rawValue) line") }
                guard value.unicodeScalars.count <= StoreSnapshotFile.maximumTextLength,
                      UntrustedText.isPrintable(value)
                else {
                    throw fail("the \(key.rawValue) is not printable text of at most "
                        + "\(StoreSnapshotFile.maximumTextLength) characters")
                }
                if key == .label { label = value } else { source = value }
            }
        }

        mutating func add(root id: Range<Int>, in bytes: [UInt8], line number: Int, path: String)
            throws(StoreSnapshotError) {
            guard ids.count < StoreSnapshotFile.maximumRoots else {
                throw .malformed(path, line: number,
                                 "version \(version): more than \(StoreSnapshotFile.maximumRoots) roots")
            }
            if let last = ids.last, ascending { ascending = Self.compare(last, id, in: bytes) < 0 }
            ids.append(id)
        }

        /// A version's roots as a set, with the ids it was made from for the next version.
        struct Roots {
            let ids: [Range<Int>]
            let ascending: Bool
            let set: Set<String>
            /// The ids the version before it does not list, when it was made from that version's set.
            var added: [String]?
        }

        /// The version's set of roots. A version lists nearly the roots of the one before it, so when both lists
        /// ascend, the set is the one before's with the few differences applied, found by walking the two lists side
        /// by side: most ids are compared as bytes and never made a String or hashed, which was most of what reading
        /// a membership file cost.
        func roots(in bytes: [UInt8], after previous: Roots?) -> Roots {
            func text(_ id: Range<Int>) -> String { String(decoding: bytes[id], as: UTF8.self) }
            guard ascending, let previous, previous.ascending else {
                var set = Set<String>(minimumCapacity: ids.count)
                for id in ids { set.insert(text(id)) }
                return Roots(ids: ids, ascending: ascending, set: set)
            }
            var set = previous.set
            var added: [String] = []
            var old = 0
            var new = 0
            while old < previous.ids.count || new < ids.count {
                let order = old == previous.ids.count ? 1 : new == ids.count ? -1
                    : Self.compare(previous.ids[old], ids[new], in: bytes)
                if order < 0 { set.remove(text(previous.ids[old])) }
                if order > 0 {
                    let id = text(ids[new])
                    set.insert(id)
                    added.append(id)
                }
                if order <= 0 { old += 1 }
                if order >= 0 { new += 1 }
            }
            return Roots(ids: ids, ascending: true, set: set, added: added)
        }

        /// The byte order of two ids of the file: negative, zero or positive.
        private static func compare(_ left: Range<Int>, _ right: Range<Int>, in bytes: [UInt8]) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                let order = memcmp(buffer.baseAddress! + left.lowerBound, buffer.baseAddress! + right.lowerBound,
                                   min(left.count, right.count))
                return order != 0 ? Int(order) : left.count - right.count
            }
        }

        func snapshot(platform: String, path: String, roots: Set<String>) throws(StoreSnapshotError) -> StoreSnapshot {
            guard let date, let source else {
                throw .malformed(path, line: line, "version \(version) has no \(date == nil ? "date" : "source") line")
            }
            return StoreSnapshot(platform: platform, version: version, label: label ?? "\(platform) \(version)",
                                 date: date, source: source, rootIDs: roots)
        }
    }
}
