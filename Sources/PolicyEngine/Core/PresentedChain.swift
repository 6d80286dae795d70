import OpenSSLWrapper

/// The certificates a server presented (or files gave), leaf first, in the order sent. Nothing about them is checked:
/// they need not connect, and may hold strays and duplicates (swift-certificates' `UnverifiedCertificateChain`).
public struct PresentedChain: RandomAccessCollection, Sendable {
    public let certificates: [X509Certificate]

    public init(_ certificates: [X509Certificate]) { self.certificates = certificates }

    public var startIndex: Int { certificates.startIndex }
    public var endIndex: Int { certificates.endIndex }
    public subscript(position: Int) -> X509Certificate { certificates[position] }

    /// The certificate the server is, when anything was presented.
    public var leaf: X509Certificate? { certificates.first }
}
