/// The names of a snapshot's roots without their certificates: `roots.index`, one line a root, `ID SUBJECT ISSUER`
/// with OpenSSL's name hashes in 8 hex digits (`openssl x509 -subject_hash -issuer_hash`), `#` comments
/// (docs/platform-stores.md). scripts/index-stores.sh writes it; the Debian package's copy of the snapshots has one.
///
/// With it, a run reads only the roots a chain can reach (`IndexedAnchor`); without it, every root of every version
/// named is read for its subject. It is optional: a snapshot directory without one is read as before, and a root
/// it does not list is read for its names as before.
package struct StoreRootIndex: Sendable {
    /// One root's name hashes.
    package struct Names: Sendable, Equatable {
        package let subject: UInt
        package let issuer: UInt
    }

    package let names: [String: Names]

    static let fileName = "roots.index"
    /// 368 roots take 30 kB; a line takes 82 bytes.
    static let maximumSize = 4 << 20
    static let maximumLineLength = 1024

    /// Reads the index `bytes`, which errors name `path`; a line it cannot read is an error at that line.
    package init(_ bytes: [UInt8], path: String) throws(StoreSnapshotError) {
        guard bytes.count <= Self.maximumSize else {
            throw StoreSnapshotError("\(path): larger than \(Self.maximumSize >> 20) MiB, which no index comes near; "
                + "rebuild it with scripts/index-stores.sh")
        }
        var names: [String: Names] = [:]
        var lines: [String: Int] = [:]
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            guard line.count <= Self.maximumLineLength else {
                throw .malformed(path, line: number, "a line longer than \(Self.maximumLineLength) bytes")
            }
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
            guard fields.count == 3, StoreSnapshotFile.isRootID(bytes: fields[0]),
                  let subject = Self.hash(fields[1]), let issuer = Self.hash(fields[2])
            else {
                throw .malformed(path, line: number, "expected `ID SUBJECT ISSUER`: a root id (64 lowercase hex "
                    + "digits, optionally `-` and 8 more) and two name hashes of 8 lowercase hex digits")
            }
            let id = String(decoding: fields[0], as: UTF8.self)
            if let first = lines[id] {
                throw .malformed(path, line: number, "root \(id) again (first on line \(first))")
            }
            lines[id] = number
            names[id] = Names(subject: subject, issuer: issuer)
        }
        self.names = names
    }

    /// 8 lowercase hex digits.
    private static func hash(_ field: ArraySlice<UInt8>) -> UInt? {
        guard field.count == 8 else { return nil }
        var value: UInt = 0
        for byte in field {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            value = value << 4 | UInt(digit)
        }
        return value
    }
}
