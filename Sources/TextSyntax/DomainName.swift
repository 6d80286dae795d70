import Glibc

/// A host name or IP literal as given on the command line or in a URL.
public struct DomainName: Sendable {
    /// Without IPv6 brackets.
    public let value: String
    public let isIPAddress: Bool

    public init(_ raw: String) {
        var text = raw
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        value = text
        var v4 = in_addr()
        var v6 = in6_addr()
        // inet_pton reads a C string: a NUL would hide the rest of the name, so such a name is no address.
        isIPAddress = !text.utf8.contains(0)
            && (inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1)
    }
}
