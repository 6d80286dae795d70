import OpenSSLWrapper
import PolicyEngine

/// What a command line says of the policy (`check`, `verify`, `lint`): a policy file whose apps judge, or one
/// library's pins and flags; the anchors, the time and the warning window.
public struct PolicySettings: Sendable {
    /// A policy file (`--config`); nil: the one policy `library` and `flags` give.
    public var config: String?
    public var library: Library
    /// The pins and flags of `library`, parsed but not yet read or built.
    public var flags: PolicyFlags
    public var anchors: AnchorSettings
    /// Warn about certificates expiring within this many days.
    public var warnDays: Int
    /// The platform version judged on (DESIGN §12); nil: the system store, or the anchors given in its place.
    public var platform: PlatformStore? = nil
    /// The Android API level apps target where the policy file gives none (`--target-sdk`).
    public var targetSdk: Int? = nil

    public init(config: String?, library: Library, flags: PolicyFlags, anchors: AnchorSettings, warnDays: Int) {
        self.config = config
        self.library = library
        self.flags = flags
        self.anchors = anchors
        self.warnDays = warnDays
    }

    /// The evaluation context: the anchors standing for the system store (`anchorsFromFile` when the command line
    /// names none; beside the platform's roots on a platform), the time, the warning window.
    public func context(anchorsFromFile: (caFiles: [String]?, caPaths: [String]?) = (nil, nil)) throws(InputError)
        -> EvaluationContext
    {
        guard let platform else {
            return EvaluationContext(platformAnchors: try anchors.trustStore(fallback: anchorsFromFile),
                                     time: anchors.time, warnDays: warnDays)
        }
        let (store, userRoots) = try anchors.trustStore(on: platform, fallback: anchorsFromFile)
        var context = EvaluationContext(platformAnchors: store, time: anchors.time, warnDays: warnDays,
                                        platformRules: platform.rules(userRoots: userRoots))
        context.platform = platform.snapshot
        context.defaultTargetSdk = targetSdk
        return context
    }
}

extension PolicySetup {
    /// The evaluator for `settings` and the policy its library's definition builds from the flags (for each domain).
    public init(_ settings: PolicySettings) throws(InputError) {
        let evaluator = PolicyEvaluator(context: try settings.context())
        let built = try settings.library.definition.policyFromFlags(settings.flags)
        self.init(evaluator: evaluator, warnings: built.warnings, policy: built.policy)
    }
}

extension Judge {
    /// The judge of the one policy the flags give (a policy file's is `init(_:file:)`, from the file `CheckPlan`
    /// reads). A policy that cannot be built is an input error.
    init(flags settings: PolicySettings) throws(InputError) {
        self = .flags(try PolicySetup(settings))
    }

    /// The judge of a policy file already read (`settings.config` is not read again): every app of `file`, with its
    /// anchors unless the settings name some.
    init(_ settings: PolicySettings, file: PolicyFile) throws(InputError) {
        let context = try settings.context(anchorsFromFile: (file.caFiles, file.caPaths))
        self = .file(file, PolicyEvaluator(context: context))
    }
}
