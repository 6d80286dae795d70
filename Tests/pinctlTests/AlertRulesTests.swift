import Foundation
import Testing
import TestSupport

/// The alerting rules pinctl ships (examples/prometheus/pinctl-alerts.yml, /usr/share/pinctl/prometheus in the
/// package), checked and unit-tested by Debian's promtool: every rule fires on the series `pinctl serve` exports, with
/// the labels and annotations written by hand in pinctl-alerts.test.yml, and not before its `for:`.
@Suite struct AlertRulesTests {
    static let directory = Certs.root + "/examples/prometheus"

    @Test func theShippedRulesAreValidAndEachFiresAsItsTestSays() throws {
        let checked = try Subprocess.run("/usr/bin/promtool", ["check", "rules", "pinctl-alerts.yml"],
                                         in: Self.directory)
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.contains("SUCCESS: 9 rules found"), "\(checked)")
        let tested = try Subprocess.run("/usr/bin/promtool", ["test", "rules", "pinctl-alerts.test.yml"],
                                        in: Self.directory)
        #expect(tested.status == 0, "\(tested)")
        #expect(tested.stdout.contains("SUCCESS"), "\(tested)")
    }

    /// The rule test can fail: a rule's threshold moved (30 days to 10) leaves the alert it expects unfired.
    @Test func aRuleTestFailsWhenARuleChanges() throws {
        try TemporaryDirectory.with { directory in
            let rules = try String(contentsOfFile: Self.directory + "/pinctl-alerts.yml", encoding: .utf8)
            let changed = rules.replacingOccurrences(of: "< 30 * 86400", with: "< 10 * 86400")
            try #require(changed != rules)
            _ = try directory.write("pinctl-alerts.yml", text: changed)
            _ = try directory.write("pinctl-alerts.test.yml", text: try String(
                contentsOfFile: Self.directory + "/pinctl-alerts.test.yml", encoding: .utf8))
            let tested = try Subprocess.run("/usr/bin/promtool", ["test", "rules", "pinctl-alerts.test.yml"],
                                            in: directory.path)
            #expect(tested.status == 1, "\(tested)")
            #expect((tested.stdout + tested.stderr).contains("alertname: PinctlAppBreaksWithin30Days"), "\(tested)")
        }
    }
}
