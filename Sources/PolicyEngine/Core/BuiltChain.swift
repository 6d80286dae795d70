import OpenSSLWrapper

/// The path the deciding validation built, leaf to anchor: each certificate issued by the next, presented ones that
/// do not connect left out, store certificates the server never sent included (swift-certificates'
/// `ValidatedCertificateChain`). It is the chain pins are compared with (DESIGN §6); when the validation failed, the
/// path as far as it got, and at least the leaf.
public struct BuiltChain: RandomAccessCollection, Sendable {
    public let certificates: [X509Certificate]

    public init(_ certificates: [X509Certificate]) { self.certificates = certificates }

    public var startIndex: Int { certificates.startIndex }
    public var endIndex: Int { certificates.endIndex }
    public subscript(position: Int) -> X509Certificate { certificates[position] }
}
