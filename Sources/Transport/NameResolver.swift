import FoundationEssentials
import Glibc

/// Name resolution with getaddrinfo, bounded by the operation's deadline.
package enum NameResolver {
    /// Why a lookup found no address: getaddrinfo's own words.
    package struct LookupFailure: Error, Sendable {
        package let reason: String

        package init(reason: String) { self.reason = reason }
    }

    /// A blocking lookup; `systemLookup` in production, a stand-in in tests (e.g. one that hangs).
    package typealias Lookup = @Sendable (_ host: String, _ port: UInt16, _ family: AddressFamily)
        -> Result<[SocketAddress], LookupFailure>

    /// The addresses of `host` in the resolver's order, or `.dns` / `.timeout`.
    ///
    /// An IP literal is converted inline (no lookup can hang on it); a name is looked up on a detached thread and
    /// waited for only until the deadline, because getaddrinfo has no timeout of its own and a dead resolver would
    /// otherwise hold the whole run. An abandoned lookup finishes on its own thread and frees its own result.
    package static func resolve(
        host: String,
        port: UInt16,
        family: AddressFamily,
        deadline: Deadline,
        lookup: @escaping Lookup = systemLookup
    ) throws(TLSConnectionError) -> [SocketAddress] {
        let target = TargetName(host: host, port: port)
        let outcome: Result<[SocketAddress], LookupFailure>
        if SocketAddress.isIPLiteral(host) {
            outcome = getaddrinfoLookup(host, port, family, numericOnly: true)
        } else {
            guard let answer = Self.answer(lookup, host, port, family, deadline) else {
                throw TLSConnectionError(.timeout, "no DNS answer for \(target) within \(deadline.allowance)")
            }
            outcome = answer
        }
        switch outcome {
        case .success(let addresses):
            return addresses
        case .failure(let failure):
            throw TLSConnectionError(.dns, "cannot resolve \(host)\(family.suffix): \(failure.reason)")
        }
    }

    /// getaddrinfo for TCP addresses of `host`, in its order, without duplicates.
    package static let systemLookup: Lookup = { host, port, family in
        getaddrinfoLookup(host, port, family, numericOnly: false)
    }

    private static func answer(
        _ lookup: @escaping Lookup, _ host: String, _ port: UInt16, _ family: AddressFamily, _ deadline: Deadline
    ) -> Result<[SocketAddress], LookupFailure>? {
        let pending = PendingLookup()
        JoinableThread { pending.finish(lookup(host, port, family)) }.detach()
        return pending.result(until: deadline)
    }

    private static func getaddrinfoLookup(
        _ host: String, _ port: UInt16, _ family: AddressFamily, numericOnly: Bool
    ) -> Result<[SocketAddress], LookupFailure> {
        var hints = addrinfo()
        hints.ai_family = family.socketFamily
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_protocol = Int32(IPPROTO_TCP)
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            // EAI_SYSTEM means "see errno"; read it before anything else can change it.
            let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
            return .failure(LookupFailure(reason: reason))
        }
        // The list is ours (+1): copied into Swift values, then freed here whoever waits for the answer.
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var cursor = list
        while let entry = cursor {
            if let raw = entry.pointee.ai_addr, let address = SocketAddress(raw, length: entry.pointee.ai_addrlen),
                !addresses.contains(where: { $0.description == address.description }) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else { return .failure(LookupFailure(reason: "no IPv4 or IPv6 address")) }
        return .success(addresses)
    }
}

/// The hand-off between the lookup thread and the waiter, which gives up at its deadline (getaddrinfo has none).
// @unchecked Sendable: `outcome` is only read and written with `condition` held.
private final class PendingLookup: @unchecked Sendable {
    private let condition = ThreadCondition()
    private var outcome: Result<[SocketAddress], NameResolver.LookupFailure>?

    func finish(_ outcome: Result<[SocketAddress], NameResolver.LookupFailure>) {
        condition.withLock {
            self.outcome = outcome
            condition.broadcast()
        }
    }

    /// The lookup's outcome, or nil when `deadline` passes first.
    func result(until deadline: Deadline) -> Result<[SocketAddress], NameResolver.LookupFailure>? {
        condition.withLock {
            while outcome == nil, !deadline.hasPassed { condition.wait(for: deadline.remaining) }
            return outcome
        }
    }
}

extension AddressFamily {
    var socketFamily: Int32 {
        switch self {
        case .any: AF_UNSPEC
        case .ipv4: AF_INET
        case .ipv6: AF_INET6
        }
    }

    /// Appended to a resolution failure so "-6" explains why a name with only IPv4 addresses did not resolve.
    var suffix: String {
        switch self {
        case .any: ""
        case .ipv4: " to an IPv4 address"
        case .ipv6: " to an IPv6 address"
        }
    }
}
