/// The pinning libraries whose semantics pinctl reproduces; each has one evaluator in `Libraries/`.
public enum Library: String, Sendable, CaseIterable {
    /// AFNetworking's `AFSecurityPolicy` (iOS); the default.
    case afnetworking
    /// Alamofire 5's `ServerTrustManager` and its evaluators (iOS).
    case alamofire
    /// OkHttp's `CertificatePinner` (Android, JVM).
    case okhttp
    /// TrustKit's `TSKPinningValidator` (iOS).
    case trustkit
    /// Android's Network Security Configuration.
    case nsc

    /// "AFNetworking", "Android NSC": the name people know it by.
    public var displayName: String {
        switch self {
        case .afnetworking: "AFNetworking"
        case .alamofire: "Alamofire"
        case .okhttp: "OkHttp"
        case .trustkit: "TrustKit"
        case .nsc: "Android NSC"
        }
    }
}
