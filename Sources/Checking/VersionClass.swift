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
    /// Per registered library, in the registry's order: whether its pinning exists on the version.
    let libraries: [Bool]
    let reachableRoots: [String]

    init(_ store: PlatformStore, presented: [X509Certificate]) {
        let rules = store.rules(userRoots: nil)
        platform = store.snapshot.platform
        appliesAppleServerPolicy = rules.appliesAppleServerPolicy
        checksAnchorValidity = rules.checksAnchorValidity
        requiresCertificateTransparency = rules.certificateTransparency != nil
        userRootsNeedOptIn = store.snapshot.userRootsNeedOptIn
        libraries = LibraryRegistry.all.map { $0.absence(on: store.snapshot) == nil }
        reachableRoots = store.rootNames.reachable(from: presented, in: store.snapshot.rootIDs)
    }
}
