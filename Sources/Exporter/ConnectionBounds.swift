import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Bounds how long one connection holds its place among the 1,024 the server accepts and its address's
/// --max-connections-per-address. Each request must arrive whole, head and any body, within `requestTimeout` of
/// the connection opening or of its last answer, so an idle keep-alive connection is closed after the same time.
/// An answer that says `Connection: close` (every refusal) ends the connection: what the client sends after the
/// request head, a body above all, is never read.
///
/// Not Hummingbird's `idleTimeout`: it starts again at every HTTP part read, and a body arrives in as many parts as
/// the client sends segments, so a body trickled a byte every few seconds held its connection for ever (issue #32).
/// And after an answer Hummingbird closes only when the *request* said `Connection: close`; otherwise it reads the
/// body to its end, however long that takes, whatever the answer said.
final class ConnectionBounds: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the client may still send after the connection's last answer, once its write side is shut: Go's
    /// net/http waits as long (`rstAvoidanceDelay`). Closing at once with unread bytes in the socket makes the kernel
    /// send a reset, and a client still sending its body may then lose the answer it has not read yet.
    static let lingerAfterClosingAnswer = TimeAmount.milliseconds(500)

    private let requestTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Requests read to their end and not yet answered: only when none is left does the deadline run again.
    private var unanswered = 0
    /// Set when an answer saying `Connection: close` starts: nothing read after it is passed on.
    private var closing = false
    /// Set once that answer is sent and the write side shut.
    private var answeredAndClosing = false

    init(requestTimeout: TimeAmount) {
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // The pipeline of an accepted connection may be built before or after it is active.
        if context.channel.isActive { startDeadline(context, in: requestTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { startDeadline(context, in: requestTimeout) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { stopDeadline() }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server lets clients half-close; one that has its refusal and stops sending needs no linger.
        if answeredAndClosing, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        if case .end = unwrapInboundIn(data) {
            // Read whole in time: from here the route's own bounds (a probe's timeout) hold the connection.
            unanswered += 1
            stopDeadline()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection] == "close" { closing = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard !closing else {
                endAfterClosingAnswer(context, data, promise)
                return
            }
            // A refusal may answer before its request's end was read; every such answer closes, so this one was read.
            unanswered = max(0, unanswered - 1)
            context.write(data, promise: promise)
            if unanswered == 0 { startDeadline(context, in: requestTimeout) }
        }
    }

    /// Sends the answer, shuts the write side (the client reads the answer to its end), and closes the connection
    /// after the linger, or when the client closes first.
    private func endAfterClosingAnswer(_ context: ChannelHandlerContext, _ data: NIOAny,
                                       _ promise: EventLoopPromise<Void>?)
    {
        let written = context.eventLoop.makePromise(of: Void.self)
        written.futureResult.cascade(to: promise)
        context.writeAndFlush(data, promise: written)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in
            answeredAndClosing = true
            context.close(mode: .output, promise: nil)
        }
        startDeadline(context, in: Self.lingerAfterClosingAnswer)
    }

    private func startDeadline(_ context: ChannelHandlerContext, in time: TimeAmount) {
        stopDeadline()
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: time) {
            context.close(promise: nil)
        }
    }

    private func stopDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
