import Foundation
import PolicyEngine
import Testing
import TestSupport

/// `versions:` as a field report is matched against them (DESIGN §7: "4.2", "5.0-5.9"); expected values by hand.
@Suite struct AppVersionsTests {
    static func app(_ versions: String) throws -> PolicyFile.App {
        try TemporaryDirectory.with { directory in
            let file = try directory.write("pinctl.yaml", text: """
                version: 1
                apps:
                  - name: app
                    \(versions)
                    library: okhttp
                    policy: { pins: { "**.example.com": [sha256/nq8cSsI9I65ax04ULGUn6GeJ8a0qvYfqjHUGeDE5pks=] } }
                """)
            return try #require(try PolicyFile.load(file).apps.first)
        }
    }

    @Test func anEntryOrARangeCarriesAVersion() throws {
        let app = try Self.app(#"versions: ["4.2", "5.0-5.9", "beta-2"]"#)
        let carried = ["4.2", "5.0", "5", "5.9", "5.9.3", "5.3.1", "beta-2"]  // "5" is 5.0
        let notCarried = ["4.2.1", "4.3", "5.10", "6.0", "4.9", "beta", "", "5.x"]
        #expect(carried.filter { !app.carries(version: $0) } == [])
        #expect(notCarried.filter { app.carries(version: $0) } == [])
    }

    @Test func anAppListingNoVersionsCarriesEveryOne() throws {
        let app = try Self.app("")
        #expect(app.carries(version: "1.0") && app.carries(version: "anything"))
    }
}
