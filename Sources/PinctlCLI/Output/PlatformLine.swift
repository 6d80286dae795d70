import Checking
import OpenSSLWrapper
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
    /// "… on Android 7.1.1–16 (API 25–36): TRUSTED — anchor ISRG Root X1": one verdict over a range of platform
    /// versions (DESIGN §12), naming the anchor the range's path reached, and what differs from the range before it
    /// (`previous`, the same app's on the same platform) when both trust the chain by other anchors.
    func platformLine(after previous: TargetReport?) -> String {
        let who = Terminal.safe(platformName) + ": "
        guard let rejection = evaluation.rejection else {
            var line = who + Terminal.paint("TRUSTED", .green)
            if let root = reachedRoot {
                line += " — anchor " + Terminal.safe(root.certificate.commonNameOrSubject)
                    + (root.presented ? " (presented)" : "")
                if let before = previous?.reachedRoot, previous?.evaluation.isTrusted == true,
                   before.certificate != root.certificate {
                    line += "; " + Self.difference(from: before.certificate, to: root.certificate)
                }
            }
            // On versions where the library does not exist the app is not pinned, and the line says why (DESIGN §12:
            // "not pinned on Android 6.0 (API 23): the Network Security Configuration exists from API 24").
            if let basis = evaluation.trustBasis, basis.isLibraryAbsent, let why = basis.explanation {
                line += (reachedRoot == nil ? " — " : "; ") + Terminal.safe(why)
            }
            return line
        }
        let why: String
        if let root = platform?.missingRoot {
            why = "\(root) is not in that store"
        } else {
            why = evaluation.rejectionMessageLines.first ?? ""
        }
        return who + Terminal.paint("REJECTED", .red) + " " + rejection.reason.code + " — " + Terminal.safe(why)
    }

    /// The certificate the range's path ends at (a store's root, a user's, or one the server sent), and whether the
    /// server sent it.
    private var reachedRoot: (certificate: X509Certificate, presented: Bool)? {
        guard let root = evaluation.builtChain.last, evaluation.builtChain.count > 1 || root.isSelfSigned else {
            return nil
        }
        return (root, evaluation.presented.contains(root))
    }

    /// What another version's root is to this one: the same key re-issued, or another root.
    private static func difference(from before: X509Certificate, to after: X509Certificate) -> String {
        if before.spkiDER == after.spkiDER {
            return "root re-issued: same key, another certificate than on the versions before"
        }
        return "another anchor than on the versions before (" + Terminal.safe(before.commonNameOrSubject) + ")"
    }
}
