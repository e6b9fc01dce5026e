import NIOCore
import NIOHTTPTypes

/// Cuts slow clients (slowloris): a connection must send a request's head
/// within `header` of opening or of its last response, and the rest of the
/// request within `body` of its head; else it is closed. While the server
/// works on a request nothing is timed (a fetch may take its timeout).
///
/// - Important: runs on the connection's event loop only (NIO's rule for handlers).
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let header: TimeAmount
    private let body: TimeAmount
    private var timer: Scheduled<Void>?

    init(header: TimeAmount, body: TimeAmount) {
        self.header = header
        self.body = body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(header, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(header, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(body, context: context)
        case .body: break
        case .end:
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(header, context: context) }
        context.write(data, promise: promise)
    }

    private func arm(_ limit: TimeAmount, context: ChannelHandlerContext) {
        timer?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: limit) {
            loopBound.value.close(promise: nil)
        }
    }
}
