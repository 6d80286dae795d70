import FoundationEssentials

/// The files apps ship, read as the library reads them: the seam where each native format plugs in, for `config:`
/// in a policy file and for `config import`.
public enum NativeConfiguration {
    /// What a native file does not say but the app entry does.
    public struct Settings: Sendable {
        public var hosts: [String]
        /// nsc: a debuggable build (debug-overrides apply).
        public var debuggable = false
        /// afnetworking: the pinning mode a `.cer` bundle is used with.
        public var mode: PinningMode = .publicKey
        /// alamofire: the bundle's certificates pin keys (`PublicKeysTrustEvaluator`) rather than certificates.
        public var publicKeys = false

        public init(hosts: [String] = []) { self.hosts = hosts }
    }

    /// A policy read from a native file, and what the reading noticed (keys ignored, files skipped).
    public struct Reading: Sendable {
        public let policy: any TrustPolicy
        public let notes: [String]
    }

    public static func read(_ path: String, library: Library, settings: Settings) throws(ConfigurationError) -> Reading {
        switch library {
        case .nsc:
            let config = try NSCXMLReader.read(path, debuggable: settings.debuggable)
            return Reading(policy: NSCPolicy(config: config, debuggable: settings.debuggable, hosts: settings.hosts),
                           notes: config.notes)
        case .trustkit:
            let (policy, notes) = try TrustKitConfigurationReader.read(path, hosts: settings.hosts)
            return Reading(policy: policy, notes: notes)
        case .okhttp:
            let (policy, notes) = try OkHttpSourceReader.read(path, hosts: settings.hosts)
            return Reading(policy: policy, notes: notes)
        case .afnetworking:
            let (certificates, notes) = try CertificateBundle.read(path, library: .afnetworking)
            let policy = AFNetworkingPolicy(mode: settings.mode, pinnedCertificates: certificates, hosts: settings.hosts)
            return Reading(policy: policy, notes: notes)
        case .alamofire:
            let (certificates, notes) = try CertificateBundle.read(path, library: .alamofire)
            guard !settings.hosts.isEmpty else {
                throw ConfigurationError(file: path, message: "Alamofire's evaluators are per host, and a bundle names "
                    + "none: list the hosts the app evaluates with it")
            }
            // The default evaluators pin the whole bundle for every host they are given.
            let evaluator: AlamofireEvaluator = settings.publicKeys
                ? .publicKeys(certificates, performDefaultValidation: true, validateHost: true)
                : .pinnedCertificates(certificates, acceptSelfSignedCertificates: false, performDefaultValidation: true,
                                      validateHost: true)
            return Reading(policy: AlamofirePolicy(evaluators: settings.hosts.map { ($0, evaluator) }), notes: notes)
        }
    }
}
