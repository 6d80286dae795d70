import OpenSSLWrapper

/// One way a client meets a target (`check --all-addresses --key-types --tls`): the address connected to, the key
/// type of the certificate asked for, the TLS version offered; nil where the client did not choose.
public struct Edge: Sendable, Equatable {
    /// The address, numeric and without a port ("127.0.0.2", "2001:db8::7").
    public var address: String?
    public var keyType: CertificateKeyType?
    public var version: TLSProtocolVersion?

    public init(address: String?, keyType: CertificateKeyType?, version: TLSProtocolVersion?) {
        self.address = address
        self.keyType = keyType
        self.version = version
    }

    /// "RSA, TLS 1.2 on 127.0.0.2": what an error line and the report's header call the edge.
    public var label: String {
        let parts = [keyType?.displayName, version?.displayName].compactMap { $0 }
        let kind = parts.isEmpty ? "" : parts.joined(separator: ", ")
        guard let address else { return kind.isEmpty ? "the only edge" : kind }
        return kind.isEmpty ? "on \(address)" : "\(kind) on \(address)"
    }

    /// "the RSA chain on 127.0.0.2 over TLS 1.2": the edge in a sentence of the summary.
    public var phrase: String { Self.phrase(address: address, keyType: keyType, version: version) }

    public static func phrase(address: String?, keyType: CertificateKeyType?, version: TLSProtocolVersion?) -> String {
        var text = keyType.map { "the \($0.displayName) chain" } ?? "the chain"
        if let address { text += " on \(address)" }
        if let version { text += " over \(version.displayName)" }
        return text
    }

    /// The numeric host of "127.0.0.1:443" or "[::1]:443".
    public static func host(ofPeer peer: String) -> String {
        if peer.hasPrefix("["), let close = peer.firstIndex(of: "]") {
            return String(peer[peer.index(after: peer.startIndex)..<close])
        }
        return peer.lastIndex(of: ":").map { String(peer[..<$0]) } ?? peer
    }
}
