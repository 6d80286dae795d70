import Foundation
import FuzzSupport
import PolicyEngine
import TextSyntax

/// Any bytes, as a snapshot's membership file (`android.txt`).
enum StoreSnapshotFileFuzz {
    static let path = "stores/android.txt"
    /// The longest refusal: the file, a line number and a sentence that quotes at most a version pinctl read.
    static let longestRefusal = 200

    static func check(_ bytes: [UInt8]) {
        let snapshots: [StoreSnapshot]
        do {
            let read = try StoreSnapshotFile.read(bytes, platform: "android", path: path)
            snapshots = read.versions
            Fuzz.require(read.allRootIDs == Set(snapshots.flatMap(\.rootIDs)),
                         "every root id read is not the union of the versions' ids")
        } catch {
            let message = error.description
            Fuzz.require(message.hasPrefix(path + ":"), "a rejection that does not name the file: \(message)")
            Fuzz.require(message.count <= longestRefusal, "a refusal of \(message.count) characters: \(message)")
            let line = message.dropFirst(path.count + 1).prefix { $0.isNumber }
            if let number = Int(line) {
                Fuzz.require(number <= Fuzz.maximumLine(of: bytes), "line \(number) of a shorter file: \(message)")
            }
            return
        }
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
            Fuzz.require(earlier.version < later.version, "versions \(earlier.version), \(later.version) out of order")
        }
        for snapshot in snapshots {
            Fuzz.require(UntrustedText.isPrintable(snapshot.label) && UntrustedText.isPrintable(snapshot.source),
                         "a label or source pinctl should have refused")
            Fuzz.require(snapshot.date.utf8.count == 10, "a date that is not YYYY-MM-DD: \(snapshot.date)")
            Fuzz.require(snapshot.rootIDs.allSatisfy { id in
                id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
            }, "a root id that is not lowercase hex")
        }
        // Written back as scripts/build_stores.py writes the file, it reads back the same.
        var text = "# written back\n"
        for snapshot in snapshots {
            text += "\nversion \(snapshot.version)\nlabel \(snapshot.label)\ndate \(snapshot.date)\n"
                + "source \(snapshot.source)\n" + snapshot.rootIDs.sorted().map { "root \($0)\n" }.joined()
        }
        do {
            let again = try StoreSnapshotFile.parse(Array(text.utf8), platform: "android", path: path)
            Fuzz.require(again == snapshots, "the versions written back read as other versions")
        } catch {
            Fuzz.require(false, "the versions written back do not read: \(error)")
        }
    }
}

@main
enum Main {
    static func main() { Fuzz.main(StoreSnapshotFileFuzz.check) }
}
