/// A name pinned to addresses without DNS, in curl's `--resolve HOST:PORT:ADDR[,ADDR...]` form.
public struct ResolveEntry: Sendable {
    public let host: String
    public let port: UInt16
    /// In the order given: tried in turn, or each an edge of its own with `--all-addresses`.
    public let addresses: [SocketAddress]

    /// Parses `HOST:PORT:ADDR[,ADDR...]`; an IPv6 address may be bracketed (`[::1]`) or not.
    public init(parsing text: String) throws(ResolveEntryError) {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ResolveEntryError("\(text): expected HOST:PORT:ADDRESS[,ADDRESS...]") }
        let host = String(parts[0])
        guard !host.isEmpty, !host.contains("["), host != "*" else {
            throw ResolveEntryError("\(text): '\(host)' is not a host name (a wildcard is not supported)")
        }
        guard let port = UInt16(parts[1]), port > 0 else {
            throw ResolveEntryError("\(text): '\(parts[1])' is not a port from 1 to 65535")
        }
        var addresses: [SocketAddress] = []
        for item in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            guard let address = SocketAddress(ipLiteral: String(item), port: port) else {
                throw ResolveEntryError("\(text): '\(item)' is not an IPv4 or IPv6 address")
            }
            addresses.append(address)
        }
        self.host = host
        self.port = port
        self.addresses = addresses
    }

    /// Whether this entry is for `host` and `port` (names compared without case, as DNS does).
    public func covers(host other: String, port otherPort: UInt16) -> Bool {
        port == otherPort && host.lowercased() == other.lowercased()
    }
}

/// A `--resolve` value that cannot be used (exit 2).
public struct ResolveEntryError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
