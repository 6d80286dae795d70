import PolicyEngine
import TestSupport
import Testing

/// DESIGN §2 as a truth table: every mode × allowInvalidCertificates × validatesDomainName × chain.
@Suite("Evaluation matrix")
struct EvaluationMatrixTests {
    @Test("AFAFNetworkingPolicy truth table", arguments: truthTable)
    func cellHasTheVerdictDesignGivesIt(_ cell: Cell) throws {
        let evaluation = try evaluate(
            cell.scenario.presented,
            with: policy(
                cell.mode, pinning: cell.scenario.pins,
                allowInvalid: cell.allowInvalid, validatesDomainName: cell.validatesDomain))
        // Only a contradiction is a configuration error (exit 2, `.misconfigured`); every other rejection is a verdict.
        expectVerdict(evaluation, is: cell.expected)
    }

    @Test func truthTableHasExactlyOneCellPerCombination() {
        var seen = Set<String>()
        for cell in truthTable {
            let key = "\(cell.mode) \(cell.allowInvalid) \(cell.validatesDomain) \(cell.scenario)"
            #expect(seen.insert(key).inserted, "duplicate cell \(key)")
        }
        #expect(seen.count == PinningMode.allCases.count * 2 * 2 * Scenario.allCases.count)
        #expect(truthTable.count == 156)
    }
}
