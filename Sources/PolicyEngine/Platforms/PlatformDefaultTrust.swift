/// What an app trusts where its pinning library does not exist or says nothing (DESIGN §12): the platform's default.
enum PlatformDefaultTrust {
    /// An app on a version below its library's first (`LibraryAvailability`): the platform's default trust manager,
    /// its store and the roots the user added, with the SSL server policy for the host, and no pin.
    static func evaluate(_ oracle: ChainOracle, domain: String?, library: Library, absence: LibraryAvailability)
        -> PolicyOutcome
    {
        let checksAnchorValidity = oracle.context.platformRules?.checksAnchorValidity ?? true
        let validation = oracle.validate(against: .platform, checks: .server(host: domain),
                                         checksAnchorValidity: checksAnchorValidity)
        if let failure = validation.failure {
            return .rejected(RejectionReason.from(failure, domain: domain, anchors: validation.anchorsDescription),
                             validation)
        }
        return .trusted(.libraryAbsent(absence.reason), validation)
    }
}

extension TrustBasis {
    /// Trusted by the platform's default only because the app's library does not exist on these versions.
    public var isLibraryAbsent: Bool {
        if case .libraryAbsent = self { return true }
        return false
    }
}

extension EvaluationContext {
    /// Android 7.0 and later trust the roots a user added only for apps that target API 23 or lower
    /// (`NetworkSecurityConfig.getDefaultBuilder`: "Applications targeting N and above must opt in into trusting the
    /// user added certificate store", `if (info.targetSdkVersion <= Build.VERSION_CODES.M …)
    /// builder.addCertificatesEntryRef(… UserCertificateSource …)`). An app whose target is not known is taken to
    /// target a later level: assuming the user's roots trusted would call safe a chain such a device refuses.
    public func forApp(targetSdk: Int?) -> EvaluationContext {
        guard let platform, platform.userRootsNeedOptIn, let rules = platformRules, rules.userRoots != nil,
              !((targetSdk ?? defaultTargetSdk).map { $0 <= 23 } ?? false)
        else { return self }
        var context = self
        context.platformAnchors = rules.systemRoots
        context.userRootsNeedOptIn = true
        return context
    }
}

extension StoreSnapshot {
    /// Android from API 24, where user-added roots are trusted only by apps that opt in (`forApp(targetSdk:)`).
    public var userRootsNeedOptIn: Bool { platform == "android" && version >= Self.android7 }
    private static let android7 = PlatformVersion("24")!
}
