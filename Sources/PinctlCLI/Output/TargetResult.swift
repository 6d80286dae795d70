import Checking

extension TargetResult {
    /// The JSON object `--format json` prints for the result.
    var json: JSONValue {
        switch self {
        case .judged(let report): report.json
        case .failed(let failure): failure.json
        }
    }
}
