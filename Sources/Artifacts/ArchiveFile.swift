import Archives
import FileAccess

/// A build's archive file, read whole into memory as IPAArchive and APKArchive parse it: a larger one is refused
/// rather than read in part.
enum ArchiveFile {
    static let maximumSize = 1 << 30

    static func read(_ path: String) throws(ArchiveError) -> [UInt8] {
        do {
            return try FileInput.read(path, limit: maximumSize)
        } catch {
            throw ArchiveError(path, reason: error.reason)
        }
    }
}
