import Testing
import TestSupport

/// One app's verdict as a command or the exporter reports it: trusted or not, and the reason code (the rejection's
/// or error's code, or the trust's basis). The tests that check one verdict everywhere compare these, command by
/// command, with values written by hand.
struct AppVerdict: Equatable, CustomStringConvertible {
    let trusted: Bool
    let reason: String

    var description: String { (trusted ? "trusted " : "not trusted ") + reason }

    /// Each app's verdict from the JSON objects of `check`, `verify` or `lint --format json`; an app reported twice
    /// fails the test.
    static func fromJSON(_ result: PinctlProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: AppVerdict]
    {
        var verdicts: [String: AppVerdict] = [:]
        for object in try LiveRun.objects(result.stdout) {
            let app = try #require(object["app"] as? String, "\(result)", sourceLocation: sourceLocation)
            let word = try #require(object["verdict"] as? String, "\(result)", sourceLocation: sourceLocation)
            let basis = (object["trust"] as? [String: Any])?["basis"] as? String
            #expect(verdicts[app] == nil, "\(app) twice: \(result)", sourceLocation: sourceLocation)
            verdicts[app] = AppVerdict(trusted: word == "trusted", reason: LiveRun.reasonCode(object) ?? basis ?? "")
        }
        return verdicts
    }

    /// Each app's verdict from a `/probe` answer's `pinctl_verdict{app,reason}` (1 trusted, 0 not); an answer other
    /// than 200 fails the test.
    static func fromProbe(_ answer: HTTPTestClient.Answer, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [String: AppVerdict]
    {
        #expect(answer.status == 200, "\(answer)", sourceLocation: sourceLocation)
        var verdicts: [String: AppVerdict] = [:]
        for line in answer.samples("pinctl_verdict") {
            // pinctl_verdict{app="NAME",reason="CODE"} VALUE
            let fields = line.split(separator: "\"")
            try #require(fields.count == 5, "\(line)", sourceLocation: sourceLocation)
            let value = line.split(separator: " ").last.flatMap { Double($0) }
            verdicts[String(fields[1])] = AppVerdict(trusted: value == 1, reason: String(fields[3]))
        }
        return verdicts
    }
}
