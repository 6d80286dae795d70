import NIOCore
import Synchronization

/// Open connections counted per client address, at most `limit` each: one client cannot take every connection the
/// server accepts (1,024) and lock everyone else out, as a thousand stalled request heads from one host did.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    private let open = Mutex<[String: Int]>([:])
    private let onRefusal: @Sendable () -> Void

    /// `onRefusal` is told of each connection closed for being one too many.
    init(limit: Int, onRefusal: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.onRefusal = onRefusal
    }

    /// The handler that counts one connection; one per channel.
    func handler() -> any RemovableChannelHandler { Handler(counter: self) }

    /// Counts a connection from `address`; false, counting nothing, when it already holds `limit`.
    private func enter(_ address: String) -> Bool {
        open.withLock { open in
            let count = open[address, default: 0]
            guard count < limit else { return false }
            open[address] = count + 1
            return true
        }
    }

    private func leave(_ address: String) {
        open.withLock { open in
            let count = open[address, default: 0] - 1
            open[address] = count > 0 ? count : nil
        }
    }

    /// Counts its channel from when it is active until it is closed; closes it at once when its address is full.
    private final class Handler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = NIOAny

        let counter: ConnectionsPerAddress
        /// The address counted, once admitted; nil before, and after the count is given back.
        private var counted: String?
        private var admitted = false

        init(counter: ConnectionsPerAddress) { self.counter = counter }

        func handlerAdded(context: ChannelHandlerContext) {
            // The pipeline of an accepted connection may be built before or after it is active.
            if context.channel.isActive { admit(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            release()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { release() }

        private func admit(_ context: ChannelHandlerContext) {
            guard !admitted else { return }
            admitted = true
            // Only IP peers reach a TCP listener; the key is the address without its port.
            guard let address = context.channel.remoteAddress?.ipAddress else { return }
            guard counter.enter(address) else {
                counter.onRefusal()
                context.close(promise: nil)
                return
            }
            counted = address
        }

        private func release() {
            guard let address = counted else { return }
            counted = nil
            counter.leave(address)
        }
    }
}
