import OpenSSLWrapper

/// Which trust anchors a validation runs against: the platform's store, certificates a policy names, or several of
/// these at once (Android's `<trust-anchors>`), each source named so a verdict can say which one ended the chain.
public struct AnchorSet: Sendable, Hashable {
    public struct Source: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// The store standing for the platform's: the system store, or the CA files given in its place.
            case platform
            /// The roots a user added on the platform judged on (`--ca-file` with `--platform`): Android's user
            /// store, which a Network Security Configuration names as `<certificates src="user"/>`.
            case userAdded
            /// Certificates the policy gives: pinned certificates, bundled resources.
            case certificates([X509Certificate])
        }

        public let kind: Kind
        /// For messages: "the pinned certificates", "@raw/corp_root".
        public let name: String

        public init(kind: Kind, name: String) {
            self.kind = kind
            self.name = name
        }

        public static let platform = Source(kind: .platform, name: "the platform's trust store")
        public static let userAdded = Source(kind: .userAdded, name: "the user-added CAs")
    }

    public let sources: [Source]

    public init(_ sources: [Source]) { self.sources = sources }

    /// The platform's store alone: what "the system trust" means for every library.
    public static let platform = AnchorSet([.platform])

    /// Exactly `certificates`, self-signed or not.
    public static func only(_ certificates: [X509Certificate], named name: String) -> AnchorSet {
        AnchorSet([Source(kind: .certificates(certificates), name: name)])
    }

    /// No anchor at all: every chain fails (an empty `<trust-anchors>`).
    public var isEmpty: Bool {
        sources.allSatisfy { source in
            if case .certificates(let certificates) = source.kind { return certificates.isEmpty }
            return false
        }
    }
}
