import OpenSSLWrapper
import PolicyEngine

/// What decides how a platform version judges one presented chain: the roots of its store a path search can reach
/// from the chain, its verifier rules, and which libraries' pinning exists on it. Two versions of the same class
/// verify the chain alike and give every app the same verdict, so the chain is judged once for both (DESIGN §12:
/// versions at the cost of one). Nothing else of a version reaches a verdict: messages name the platform's store,
/// never the version (`PlatformStores`), and a result's range is attached afterwards.
struct VersionClass: Hashable {
    let platform: String
    let appliesAppleServerPolicy: Bool
    let checksAnchorValidity: Bool
    let requiresCertificateTransparency: Bool
    let userRootsNeedOptIn: Bool
    /// Of the libraries that judge (the flags' one, or a policy file's apps'), those whose pinning exists on the
    /// version: a library no policy uses does not divide versions.
    let libraries: Set<Library>
    let reachableRoots: [String]

    init(_ store: PlatformStore, presented: [X509Certificate], judgedBy judging: Set<Library>, userRoots: Bool) {
        platform = store.snapshot.platform
        appliesAppleServerPolicy = store.appliesAppleServerPolicy
        checksAnchorValidity = store.checksAnchorValidity
        requiresCertificateTransparency = store.certificateTransparency != nil
        // The opt-in decides only whether the user's roots count (`EvaluationContext.forApp`): with none given,
        // Android 7.0 judges as 6.0 does.
        userRootsNeedOptIn = userRoots && store.snapshot.userRootsNeedOptIn
        libraries = judging.filter { $0.definition.absence(on: store.snapshot) == nil }
        reachableRoots = store.rootNames.reachable(from: presented, in: store.snapshot.rootIDs)
    }
}
