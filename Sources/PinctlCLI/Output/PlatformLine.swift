import Checking
import PolicyEngine

extension TargetReport {
    /// `android@24` or `app on android@25-34`: whose verdict on which versions.
    var platformName: String {
        let versions = platform?.name ?? "the system store"
        return app.map { "\($0.name) on \(versions)" } ?? versions
    }

    /// "android@24: REJECTED untrusted-chain — ROOT is not in that store", "android@25-34: TRUSTED": one verdict
    /// over a range of platform versions (DESIGN §12).
    var platformLine: String {
        let who = Terminal.safe(platformName) + ": "
        guard let rejection = evaluation.rejection else { return who + Terminal.paint("TRUSTED", .green) }
        let why: String
        if let root = platform?.missingRoot {
            why = "\(root) is not in that store"
        } else {
            why = evaluation.rejectionMessageLines.first ?? ""
        }
        return who + Terminal.paint("REJECTED", .red) + " " + rejection.reason.code + " — " + Terminal.safe(why)
    }
}
