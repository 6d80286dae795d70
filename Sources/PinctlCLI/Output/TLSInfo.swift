import Checking

extension TLSInfo {
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("version", .string(version)), ("cipher", .string(cipher)),
            ("clientCertificateRequested", .bool(clientCertificateRequested)),
            ("handshakeCompleted", .bool(handshakeError == nil)),
        ]
        if let handshakeError { members.append(("handshakeError", .string(handshakeError))) }
        return .object(members)
    }
}
