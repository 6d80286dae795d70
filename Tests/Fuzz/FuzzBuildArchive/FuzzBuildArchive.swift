import Archives
import Artifacts
import FuzzSupport

/// Any bytes, as the zip archive of a build (libarchive through `ZipArchive`, within small bounds) and as the Mach-O
/// executable whose encryption `MachOEncryption` reads: refused with the archive named, or read within the bounds.
enum BuildArchiveFuzz {
    static let label = "fuzz.ipa"

    static func check(_ bytes: [UInt8]) {
        var limits = ZipArchive.Limits()
        limits.entries = 64
        limits.nameBytes = 256
        limits.entryBytes = 1 << 16
        limits.totalBytes = 1 << 18
        do {
            let archive = try ZipArchive.read(bytes, label: label, limits: limits) { !$0.hasSuffix("/skip") }
            Fuzz.require(archive.entries.count <= limits.entries, "\(archive.entries.count) entries read")
            Fuzz.require(Set(archive.entries.map(\.name)).count == archive.entries.count, "a name read twice")
            var total = 0
            for (name, contents) in archive.contents {
                Fuzz.require(archive.entries.contains { $0.name == name && !$0.isDirectory },
                             "contents of \(name), which is no file entry")
                Fuzz.require(!name.hasSuffix("/skip"), "contents of an entry not asked for")
                Fuzz.require(contents.count <= limits.entryBytes, "an entry of \(contents.count) bytes")
                total += contents.count
            }
            Fuzz.require(total <= limits.totalBytes, "\(total) bytes read in all")
        } catch {
            Fuzz.require(error.archive == label, "a refusal that names another archive: \(error)")
            Fuzz.require(error.entry.map { $0.utf8.count <= limits.nameBytes + 16 } ?? true,
                         "a refusal naming an entry longer than a name may be: \(error)")
        }
        do {
            let encrypted = try MachOEncryption.encryptedSlices(bytes)
            Fuzz.require(encrypted.count <= 32, "\(encrypted.count) encrypted slices")
        } catch {
            Fuzz.require(error.description.utf8.count <= 120, "a refusal of \(error.description.utf8.count) bytes")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(BuildArchiveFuzz.check) }
}
