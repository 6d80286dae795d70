/// The strings of TrustKit's configuration keys (`TSKTrustKitConfig.m`), as an Info.plist or a JSON dictionary spells
/// them. The constants are named `kTSK…`; the strings drop the `k`, except one.
public enum TrustKitKey {
    /// The Info.plist key TrustKit reads its configuration from (`CFBundleGetValueForInfoDictionaryKey`).
    public static let configuration = "TSKConfiguration"

    // The configuration's own keys.
    public static let pinnedDomains = "TSKPinnedDomains"
    /// Whether TrustKit hooks NSURLSession's delegates; the pins are parsed and checked at launch either way.
    public static let swizzleNetworkDelegates = "TSKSwizzleNetworkDelegates"
    /// macOS only (`#if !TARGET_OS_IPHONE`): not even read on iOS.
    public static let ignorePinningForUserDefinedTrustAnchors = "TSKIgnorePinningForUserDefinedTrustAnchors"

    // The keys of one domain's entry.
    public static let publicKeyHashes = "TSKPublicKeyHashes"
    public static let enforcePinning = "TSKEnforcePinning"
    public static let includeSubdomains = "TSKIncludeSubdomains"
    /// `kTSKExcludeSubdomainFromParentPolicy = @"kSKExcludeSubdomainFromParentPolicy"`: sic, since 1.4.2.
    public static let excludeSubdomainFromParentPolicy = "kSKExcludeSubdomainFromParentPolicy"
    /// A `yyyy-MM-dd` string, read at 00:00 UTC.
    public static let expirationDate = "TSKExpirationDate"
    public static let reportUris = "TSKReportUris"
    public static let disableDefaultReportUri = "TSKDisableDefaultReportUri"
    /// Required before 1.6.0, never read since.
    public static let publicKeyAlgorithms = "TSKPublicKeyAlgorithms"
    /// PEM certificates TrustKit (1.5.0 on) also trusts for the domain when it validates the chain.
    public static let additionalTrustAnchors = "TSKAdditionalTrustAnchors"

    /// The spelling of the exclusion key a person would guess, which TrustKit does not know: such an entry is an
    /// ordinary one, and needs pins.
    static let guessedExclusion = "TSKExcludeSubdomainFromParentPolicy"

    /// The native key for a key of pinctl's inline form (`publicKeyHashes` → `TSKPublicKeyHashes`), as
    /// `TrustKitConfigurationError.key` names them.
    static func native(_ inlineKey: String) -> String {
        switch inlineKey {
        case "publicKeyHashes": publicKeyHashes
        case "includeSubdomains": includeSubdomains
        case "excludeSubdomainFromParentPolicy": excludeSubdomainFromParentPolicy
        case "enforcePinning": enforcePinning
        case "expirationDate": expirationDate
        default: inlineKey
        }
    }
}
