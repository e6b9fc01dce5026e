import NIOCore
import NIOHTTPTypes

/// Cuts slow clients (slowloris): a connection must send a request's head
/// within `header` of opening or of its last response, and the rest of the
/// request within `body` of its head; else it is closed. While the server
/// works on a request nothing is timed (a fetch may take its timeout).
///
/// One timer per connection at most: arming only moves the deadline, and
/// the timer, when it fires before the deadline, waits again until it (a
/// request on a kept-alive connection schedules and cancels nothing).
///
/// - Important: runs on the connection's event loop only (NIO's rule for handlers).
final class RequestDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let header: TimeAmount
    private let body: TimeAmount
    /// When the connection is cut; nil while nothing is timed.
    private var deadline: NIODeadline?
    /// The timer scheduled, and when it fires.
    private var timer: (task: Scheduled<Void>, at: NIODeadline)?
    /// This handler's context while it is in the pipeline (for `responseEnded`).
    private var context: ChannelHandlerContext?

    init(header: TimeAmount, body: TimeAmount) {
        self.header = header
        self.body = body
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { arm(header, context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(header, context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        timer?.task.cancel()
        timer = nil
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(body, context: context)
        case .body: break
        case .end: deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(header, context: context) }
        context.write(data, promise: promise)
    }

    /// A response written past this handler (`MemoryAnswers`) has ended:
    /// timed as one written through it.
    func responseEnded() {
        if let context { arm(header, context: context) }
    }

    private func arm(_ limit: TimeAmount, context: ChannelHandlerContext) {
        let due = NIODeadline.now() + limit
        deadline = due
        // A timer that fires by then checks again; one that would fire later is replaced.
        if let timer, timer.at <= due { return }
        schedule(at: due, context: context)
    }

    private func schedule(at due: NIODeadline, context: ChannelHandlerContext) {
        timer?.task.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = (context.eventLoop.scheduleTask(deadline: due) { loopBound.value.0.fired(context: loopBound.value.1) }, due)
    }

    private func fired(context: ChannelHandlerContext) {
        timer = nil
        guard let deadline else { return }
        if deadline <= .now() {
            self.deadline = nil
            context.close(promise: nil)
        } else {
            schedule(at: deadline, context: context)
        }
    }
}
