import Archives
import Artifacts
import FuzzSupport

/// Any bytes, as the zip archive of a build (libarchive through `ZipArchive`, within small bounds), as the Mach-O
/// executable whose encryption `MachOEncryption` reads, as an APK's binary XML and `resources.arsc`, and as a DEX
/// whose calls and strings are scanned: refused with the archive named (or the offset at fault, within the bytes), or
/// read within the bounds.
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
            let root = try BinaryXML.parse(bytes)
            Fuzz.require(depth(root) <= 64, "elements nested deeper than the bound")
        } catch {
            Fuzz.require(error.offset >= 0 && error.offset <= bytes.count, "an offset outside the bytes: \(error)")
        }
        do {
            let table = try ResourceTable.parse(bytes)
            // Every id names a resource of a type and a name; a file resource's files are the table's strings.
            if let id = table.id(type: "raw", name: "ca") { Fuzz.require(table.resource(id)?.name == "ca", "raw/ca") }
        } catch {
            Fuzz.require(error.offset >= 0 && error.offset <= bytes.count, "an offset outside the bytes: \(error)")
        }
        do {
            let dex = try DexFile.parse(bytes)
            let found = try dex.scan(calling: { $0.name == "add" }, stringsStartingWith: ["sha256/"])
            for call in found.calls {
                Fuzz.require(call.offset >= 0x70 && call.offset < bytes.count, "a call outside the file: \(call.offset)")
                Fuzz.require(call.method.name == "add", "a call of \(call.method.name), which was not asked for")
                for case .strings(let texts) in call.arguments {
                    Fuzz.require(texts.count <= 4096, "an array of \(texts.count) strings")
                }
            }
            Fuzz.require(found.strings.allSatisfy { $0.string.hasPrefix("sha256/") }, "a string not asked for")
        } catch {
            Fuzz.require(error.offset >= 0 && error.offset <= bytes.count, "an offset outside the bytes: \(error)")
        }
        do {
            let encrypted = try MachOEncryption.encryptedSlices(bytes)
            Fuzz.require(encrypted.count <= 32, "\(encrypted.count) encrypted slices")
        } catch {
            Fuzz.require(error.description.utf8.count <= 120, "a refusal of \(error.description.utf8.count) bytes")
        }
    }
}

/// How deep the tree is: the root is 1.
private func depth(_ element: BinaryXMLElement) -> Int { 1 + (element.children.map(depth).max() ?? 0) }

@main
enum Main {
    static func main() { Fuzz.main(BuildArchiveFuzz.check) }
}
