import Foundation
import OpenSSLWrapper
import Testing
import TestSupport

/// Apple's versions that require CT judge a leaf's embedded SCTs alike, so a list judges them once per leaf, issuer
/// and time (`SCTs.embedded`), on certs/ct's leaves (scripts/make-ct-certs.sh; `openssl s_client -ct` validated
/// their SCTs when they were made).
@Suite struct EmbeddedSCTMemoTests {
    /// certs/ct/ct-logs.cnf's logs A, B and C, with the list's date and source the builder writes.
    static func logs(storesInMemory: Bool = true) throws -> CTLogList {
        let logs = try String(contentsOfFile: Certs.path("ct/ct-logs.cnf"), encoding: .utf8)
        return try CTLogList(bytes: Array(("list_date = 2025-09-01\nlist_source = certs/ct\n" + logs).utf8),
                             path: "ct-logs.cnf", storesInMemory: storesInMemory)
    }

    /// OpenSSL reads the store of the SCTs' logs from a file in memory, or from a temporary directory where the
    /// system has no such files: the SCTs verify either way.
    @Test(arguments: [true, false]) func theLogsStoreLoadsFromMemoryOrATemporaryFile(inMemory: Bool) throws {
        let logs = try Self.logs(storesInMemory: inMemory)
        let chain = Certs.load("ct/leaf-2-scts-chain.pem")

        let scts = SCTs.embedded(in: chain[0], issuer: chain[1], logs: logs, at: TestTime.now)

        #expect(scts.count == 2 && scts.allSatisfy(Self.isValid), "\(scts)")
    }

    static func isValid(_ sct: SCTs.SCT) -> Bool {
        if case .valid = sct.judgement { return true }
        return false
    }

    @Test func aLeafsSCTsAreJudgedOnceAtOneTime() throws {
        let logs = try Self.logs()
        let chain = Certs.load("ct/leaf-2-scts-chain.pem")

        let first = SCTs.embedded(in: chain[0], issuer: chain[1], logs: logs, at: TestTime.now)
        let again = SCTs.embedded(in: chain[0], issuer: chain[1], logs: logs, at: TestTime.now)

        #expect(first.count == 2 && first.allSatisfy(Self.isValid))
        #expect(again.map(\.logID) == first.map(\.logID) && again.allSatisfy(Self.isValid))
        #expect(logs.embeddedHits == 1)
    }

    /// An SCT dated after the evaluation time does not count (SCT_validate), so another time is judged again.
    @Test func anotherTimeIsJudgedAgain() throws {
        let logs = try Self.logs()
        let chain = Certs.load("ct/leaf-2-scts-chain.pem")

        let now = SCTs.embedded(in: chain[0], issuer: chain[1], logs: logs, at: TestTime.now)
        let before = SCTs.embedded(in: chain[0], issuer: chain[1], logs: logs, at: Date(timeIntervalSince1970: 0))

        #expect(now.allSatisfy(Self.isValid))
        #expect(before.count == 2 && !before.contains(where: Self.isValid))
        #expect(logs.embeddedHits == 0)
    }
}
