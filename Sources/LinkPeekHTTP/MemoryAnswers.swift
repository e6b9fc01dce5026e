import HTTPTypes
import Hummingbird
import HummingbirdCore
import LinkPeek
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Answers `GET /v1/preview` inside the connection's channel pipeline when
/// memory holds a fresh preview for it, before the request becomes a task
/// of Hummingbird's (that path costs more than the answer itself). It
/// checks what `Front` checks, in the same order — method, token, the
/// per-client limit — and answers with `Front`'s own response (headers,
/// `If-None-Match`), with `Date` as Hummingbird adds it, counted in
/// `/metrics` and written to the access log the same way. Anything it
/// cannot answer from memory goes on to `Front` untouched: a wrong or
/// missing token, a client over its limit (`Front` refuses both), a bad
/// parameter, a miss, a stale entry, a request with a body, `Connection`
/// other than `keep-alive`, and every request while the service drains
/// (Hummingbird then closes each connection after its response).
///
/// Pipelined requests are answered in order: while a request passed on has
/// not had its response, the ones after it are passed on too. An answer is
/// written when its request ends, so the slow-client deadlines time the
/// connection as they time `Front`'s answers, and flushed when the read
/// that brought it is done. It is written as NIO's HTTP/1 parts, from the
/// place of the codec between those and `HTTPTypes`' (the head converted
/// once a second, not per answer), so it passes through NIO's response
/// encoder alone; `RequestDeadlines` is told it ended. A `HEAD` answer is
/// written as a `GET` one: the encoder, which knows each request's method,
/// leaves the body out.
///
/// A connection sends the same request again and again: what a request's
/// target gives (its URL and the engine's key), the body made ready, the
/// response head (for the second, which `Cache-Control` and `Date`
/// follow) and the access log line's start are kept for the next one,
/// each tied to the `Front` that made it (`Front.serial`).
///
/// - Important: runs on the connection's event loop only (NIO's rule for handlers).
final class MemoryAnswers: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// An answer made when its request's head came, written when it ends.
    private struct Answer {
        let head: HTTPResponseHead
        let code: Int
        let body: ByteBuffer?
        let front: Front
        let method: HTTPRequest.Method
        let url: String
        let start: ContinuousClock.Instant
    }

    private enum Current {
        /// Between requests.
        case idle
        /// A request passed on, until its end.
        case passing
        /// A request answered here, until its end.
        case answering(Answer)
    }

    private let fronts: FrontSwitch
    private let deadlines: RequestDeadlines
    /// The context of the codec between NIO's HTTP/1 parts and `HTTPTypes`'
    /// (writes from it reach NIO's encoder); nil: nothing is answered here.
    private var codec: ChannelHandlerContext?
    private var current = Current.idle
    /// Requests passed on whose responses have not ended.
    private var passedOn = 0
    /// Answers written since the last flush.
    private var unflushed = false
    /// The client's address, read once per connection.
    private var peer: (id: ClientID, text: String)?
    private var date = DateField()

    init(fronts: FrontSwitch, deadlines: RequestDeadlines) {
        self.fronts = fronts
        self.deadlines = deadlines
    }

    /// The handlers `serve --http` adds to a new connection: the slow-client
    /// deadlines in effect when it opens, then the answers from memory.
    static func handlers(_ fronts: FrontSwitch) -> [any RemovableChannelHandler] {
        let deadlines = fronts.front.settings.deadlines
        return [deadlines, MemoryAnswers(fronts: fronts, deadlines: deadlines)]
    }

    func handlerAdded(context: ChannelHandlerContext) {
        codec = try? context.pipeline.syncOperations.context(handlerType: HTTP1ToHTTPServerCodec.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        codec = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if passedOn == 0, let answer = answer(head, context: context) {
                current = .answering(answer)
                return
            }
            passedOn += 1
            current = .passing
        case .body:
            if case .answering = current { return }
        case .end:
            if case .answering(let answer) = current {
                current = .idle
                send(answer, context: context)
                return
            }
            current = .idle
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if unflushed {
            unflushed = false
            codec?.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), passedOn > 0 { passedOn -= 1 }
        context.write(data, promise: promise)
    }

    /// The answer to a request `Front` would answer from memory; nil to pass it on.
    private func answer(_ head: HTTPRequest, context: ChannelHandlerContext) -> Answer? {
        guard head.method == .get || head.method == .head, let target = head.path,
            target.utf8.starts(with: Self.previewPrefix)
        else { return nil }
        if let connection = head.headerFields[.connection], connection != "keep-alive" { return nil }
        // A request with a body could end in a later read than its head: `Front` answers it.
        if let length = head.headerFields[.contentLength], length != "0" { return nil }
        if head.headerFields[.transferEncoding] != nil { return nil }
        let front = fronts.front
        guard !front.lifecycle.isDraining, codec != nil else { return nil }
        let start = ContinuousClock.now
        let peer = self.peer ?? {
            let address = context.channel.remoteAddress
            let read = (ClientID(address), ClientID.text(address))
            self.peer = read
            return read
        }()
        var client = peer.id
        if let tokens = front.settings.tokens {
            guard let token = Front.bearer(head.headerFields), tokens.accepts(token.utf8) else { return nil }
            client = .token(token)
        }
        guard let parsed = parsed(target, front: front),
            let json = front.engine.freshInMemory(parsed.key, admit: { front.limiter.admit(client) == nil })
        else { return nil }
        front.metrics.began()
        front.metrics.answeredFromMemory()
        let ready = ready(json, front: front)
        let notModified = head.headerFields[.ifNoneMatch].map { ETag.matches($0, ready.etag) } ?? false
        let response = response(ready, notModified: notModified, front: front)
        return Answer(
            head: response.head, code: response.code, body: notModified ? nil : ready.buffer, front: front,
            method: head.method, url: parsed.url, start: start)
    }

    /// What a request's target gives, kept for the next request on this
    /// connection with the same target (clients repeat theirs): its `url`
    /// and the engine's key, worked out by the same `Front` (a new one
    /// after `SIGHUP` works them out again). Only targets answered from
    /// memory are kept.
    private var lastTarget: (target: String, front: Int, url: String, key: LinkPeekEngine.MemoryKey)?

    private func parsed(_ target: String, front: Front) -> (url: String, key: LinkPeekEngine.MemoryKey)? {
        if let lastTarget, lastTarget.front == front.serial, lastTarget.target == target {
            return (lastTarget.url, lastTarget.key)
        }
        let uri = URI(target)
        guard uri.path == Endpoint.preview.rawValue,
            case .success(let (url, options)) = PreviewParams.parse(uri.queryParameters, maxURLBytes: front.settings.maxURLBytes),
            let key = front.engine.memoryKey(url: url, options: options)
        else { return nil }
        lastTarget = (target, front.serial, url, key)
        return (url, key)
    }

    /// The body answered last on this connection, made ready (`ReadyBodies`).
    private var lastReady: (front: Int, ready: ReadyBodies.Ready)?

    private func ready(_ json: [UInt8], front: Front) -> ReadyBodies.Ready {
        // Cheap when memory answers with the same array again (`==` on shared storage).
        if let lastReady, lastReady.front == front.serial, lastReady.ready.json == json { return lastReady.ready }
        let ready = front.bodies.ready(json)
        lastReady = (front.serial, ready)
        return ready
    }

    /// The response head answered last, for its body, second and status:
    /// `Cache-Control` and `Date` change with the second only.
    private var lastHead: (front: Int, etag: String, second: time_t, notModified: Bool, head: HTTPResponseHead, code: Int)?

    private func response(_ ready: ReadyBodies.Ready, notModified: Bool, front: Front) -> (head: HTTPResponseHead, code: Int) {
        let second = time(nil)
        if let lastHead, lastHead.second == second, lastHead.notModified == notModified, lastHead.front == front.serial,
            lastHead.etag == ready.etag
        {
            return (lastHead.head, lastHead.code)
        }
        var response = front.previewResponse(ready, label: .hit, notModified: notModified, now: Int64(second)).head
        response.headerFields[.date] = date.text(at: second)
        let head = HTTPResponseHead(response)
        lastHead = (front.serial, ready.etag, second, notModified, head, response.status.code)
        return (head, response.status.code)
    }

    private func send(_ answer: Answer, context: ChannelHandlerContext) {
        let peer = self.peer
        let code = answer.code
        answer.front.ended(
            .preview, code: code, line: accessLine(answer.front, answer.method, code: code, url: answer.url),
            since: answer.start, client: peer?.text ?? "unknown")
        guard let codec else { return }
        codec.write(NIOAny(HTTPServerResponsePart.head(answer.head)), promise: nil)
        if let body = answer.body { codec.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil) }
        codec.write(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
        deadlines.responseEnded()
        unflushed = true
    }

    /// The access log line's start made last (`Front.accessLine`), for its front, method, code and URL.
    private var lastLine: (front: Int, method: HTTPRequest.Method, code: Int, url: String, line: String)?

    private func accessLine(_ front: Front, _ method: HTTPRequest.Method, code: Int, url: String) -> String {
        if let lastLine, lastLine.front == front.serial, lastLine.code == code, lastLine.method == method,
            lastLine.url == url
        {
            return lastLine.line
        }
        let line = front.accessLine(method, path: Endpoint.preview.rawValue, code: code, url: url)
        lastLine = (front.serial, method, code, url, line)
        return line
    }

    private static let previewPrefix = Array("/v1/preview?".utf8)
}

/// `Date` as a response carries it (RFC 9110's IMF-fixdate,
/// `Sun, 06 Nov 1994 08:49:37 GMT`), made once a second.
struct DateField {
    private var second: time_t = -1
    private var text = ""

    /// The field at `current` (seconds since 1970).
    mutating func text(at current: time_t) -> String {
        if current != second {
            second = current
            text = Self.format(current)
        }
        return text
    }

    static func format(_ seconds: time_t) -> String {
        var clock = seconds
        var parts = tm()
        guard gmtime_r(&clock, &parts) != nil else { return "" }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
