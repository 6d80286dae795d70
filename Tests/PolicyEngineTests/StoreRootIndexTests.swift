import PolicyEngine
import Testing

/// `roots.index` read as data (docs/platform-stores.md): `ID SUBJECT ISSUER`, hashes in 8 lowercase hex digits, `#`
/// comments and blank lines; anything else is an error at its line that quotes nothing of it.
@Suite struct StoreRootIndexTests {
    static let id = String(repeating: "ab", count: 32)

    @Test func linesGiveEachRootsNameHashes() throws {
        let text = "# a comment\n\n\(Self.id) 4042bcee 4042bcee\n\(Self.id)-0123abcd 00000001 ffffffff\r\n"
        let index = try StoreRootIndex(Array(text.utf8), path: "roots.index")
        #expect(index.names[Self.id]?.subject == 0x4042bcee)
        #expect(index.names[Self.id]?.issuer == 0x4042bcee)
        #expect(index.names["\(Self.id)-0123abcd"]?.subject == 1)
        #expect(index.names["\(Self.id)-0123abcd"]?.issuer == 0xffffffff)
        #expect(index.names.count == 2)
    }

    static let expected = "expected `ID SUBJECT ISSUER`: a root id (64 lowercase hex digits, optionally `-` and 8 "
        + "more) and two name hashes of 8 lowercase hex digits"

    @Test(arguments: [
        ("\(id) 4042BCEE 4042bcee", expected),
        ("\(id) 4042bce 4042bcee", expected),
        ("\(id) 4042bcee", expected),
        ("\(id)  4042bcee 4042bcee", expected),
        ("\(id) 4042bcee 4042bcee x", expected),
        ("../\(id.dropFirst(3)) 4042bcee 4042bcee", expected),
        ("\(id) 4042bcee 4042bcee\n\(id) 00000000 00000000", "root \(id) again (first on line 1)"),
    ])
    func aLineItCannotReadIsAnErrorAtItsLine(line: String, reason: String) throws {
        let error = #expect(throws: StoreSnapshotError.self) {
            try StoreRootIndex(Array(line.utf8), path: "stores/roots.index")
        }
        let number = line.split(separator: "\n").count
        #expect(error?.description == "stores/roots.index:\(number): \(reason)")
    }
}
