import Checking
import PolicyEngine

extension TargetReport {
    /// `android (nsc; 5.0-5.9)`: the app's name, then its library and its versions as the policy file gives them
    /// (either left out when the app has none); nil for a report without an app.
    var appTitle: String? {
        guard let app else { return nil }
        let versions = app.versions.isEmpty ? "" : "; " + app.versions.joined(separator: ", ")
        return "\(app.name) (\(policy.library.rawValue)\(versions))"
    }

    /// `android (nsc; 5.0-5.9) on Android 7.0 (API 24)`, `Android 7.1.1–16 (API 25–36)` for a report without an app:
    /// whose verdict on which platform versions, by their labels (`PlatformRange.label`).
    var platformName: String {
        let versions = platform?.label ?? "the system store"
        return appTitle.map { "\($0) on \(versions)" } ?? versions
    }

    /// "android (nsc; 5.0-5.9) on Android 7.0 (API 24): REJECTED untrusted-chain — ROOT is not in that store",
    /// "… on Android 7.1.1–16 (API 25–36): TRUSTED": one verdict over a range of platform versions (DESIGN §12).
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
