import Checking
import PolicyEngine
import TestSupport
import Testing

/// The snapshot files read while the command line is parsed (`StoreReadAhead`): used for the directory the parsed
/// options find and no other, and giving the errors reading them without it gives (issue #33).
@Suite struct StoreReadAheadTests {
    static func membership(_ version: String) -> String {
        "version \(version)\nlabel Android (API \(version))\ndate 2016-08-01\nsource s\n"
    }

    static func snapshotDirectory(_ directory: TemporaryDirectory, _ name: String, android: String) throws
        -> StoreLocation {
        try directory.makeDirectory(name)
        try directory.write("\(name)/FORMAT", text: "pinctl-stores 1\n")
        try directory.write("\(name)/android.txt", text: android)
        try directory.makeDirectory("\(name)/roots")
        return StoreLocation(option: directory.path(name), environment: nil, executable: nil)
    }

    static func versions(_ location: StoreLocation, readAhead: StoreReadAhead?) throws -> [String] {
        try PlatformSettings(selectors: ["android"], storesDirectory: location, readAhead: readAhead).stores()
            .map(\.snapshot.name)
    }

    @Test func whatWasReadAheadIsUsedOnlyForItsDirectory() throws {
        try TemporaryDirectory.with { directory in
            let first = try Self.snapshotDirectory(directory, "first", android: Self.membership("24"))
            let second = try Self.snapshotDirectory(directory, "second", android: Self.membership("25"))
            let readAhead = StoreReadAhead(selectors: ["android"], location: first)
            defer { readAhead.join() }
            readAhead.join()
            // The file changes once it was read ahead: a command that uses the read sees the version read.
            try directory.write("first/android.txt", text: Self.membership("26"))

            #expect(try Self.versions(first, readAhead: readAhead) == ["android@24"])
            #expect(try Self.versions(first, readAhead: nil) == ["android@26"])
            #expect(try Self.versions(second, readAhead: readAhead) == ["android@25"])
        }
    }

    @Test func aFileThatFailsGivesTheSameErrorReadAheadOrNot() throws {
        try TemporaryDirectory.with { directory in
            let location = try Self.snapshotDirectory(directory, "stores", android: Self.membership("24") + "root x\n")
            func error(_ readAhead: StoreReadAhead?) -> String {
                do {
                    return "accepted \(try Self.versions(location, readAhead: readAhead))"
                } catch {
                    return "\(error)"
                }
            }
            let readAhead = StoreReadAhead(selectors: ["android", "ios"], location: location)
            defer { readAhead.join() }
            let expected = "--platform: \(directory.path("stores/android.txt")):5: version 24: a root id is 64 "
                + "lowercase hex digits, optionally `-` and 8 more"

            #expect(error(nil) == expected)
            #expect(error(readAhead) == expected)
        }
    }
}
