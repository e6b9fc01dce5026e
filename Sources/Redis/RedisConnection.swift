internal import CHiredis

#if canImport(Glibc)
import Glibc
#endif

/// One blocking connection to Redis through hiredis, with a time limit on
/// every call (connect, send, reply).
///
/// Not `Sendable`: hiredis's context is not thread-safe, so a connection
/// belongs to one thread at a time (its owner's lock or thread says which).
/// After any `RedisError` the connection is closed for good (hiredis leaves
/// the context unusable, and a late reply would answer the next call); make
/// a new one. A reply `-ERR …` is not an error here: it is `.error`.
public final class RedisConnection {
    private var context: UnsafeMutablePointer<redisContext>?
    public let endpoint: RedisEndpoint

    /// Whether hiredis can be loaded; the reason when not. Loads it on the first call.
    public static func loadLibrary() -> Result<Void, RedisError> {
        var why = [CChar](repeating: 0, count: 256)
        guard lp_hiredis_load(&why, Int32(why.count)) == 1 else {
            let text = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(RedisError(.unavailable, "cannot load hiredis (\(text))"))
        }
        return .success(())
    }

    /// Connects, authenticates and selects the database, each step within `timeout` seconds.
    /// - Parameter timeout: also the limit of every later call, unless `setTimeout` changes it.
    public init(endpoint: RedisEndpoint, timeout: Double) throws(RedisError) {
        self.endpoint = endpoint
        if case .failure(let error) = Self.loadLibrary() { throw error }
        let limit = Self.timeval(seconds: timeout)
        guard let made = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), limit) else {
            throw RedisError(.connect, "cannot connect to \(endpoint): out of memory")
        }
        context = made
        if made.pointee.err != 0 {
            let message = String(cString: lp_redis_error(made))
            close()
            throw RedisError(.connect, "cannot connect to \(endpoint): \(message)")
        }
        _ = redisSetTimeout(made, limit)
        if let password = endpoint.password {
            let words = ["AUTH"] + (endpoint.user.map { [$0] } ?? []) + [password]
            try handshake(words.map { Array($0.utf8) }, step: "AUTH")
        }
        if endpoint.database != 0 {
            try handshake([Array("SELECT".utf8), Array(String(endpoint.database).utf8)], step: "SELECT")
        }
    }

    deinit { close() }

    private func handshake(_ command: [[UInt8]], step: String) throws(RedisError) {
        let reply = try call(command)
        if case .error(let message) = reply {
            close()
            throw RedisError(.connect, "\(endpoint) refused \(step): \(message)")
        }
    }

    /// Whether the connection can still be used.
    public var isOpen: Bool { context != nil }

    /// Closes the connection (idempotent).
    public func close() {
        if let context { redisFree(context) }
        context = nil
    }

    /// The limit on each later send and reply (a pub/sub reader waits without one: pass nil).
    public func setTimeout(_ seconds: Double?) {
        guard let context else { return }
        _ = redisSetTimeout(context, seconds.map(Self.timeval(seconds:)) ?? Glibc.timeval(tv_sec: 0, tv_usec: 0))
        if seconds == nil { _ = redisEnableKeepAlive(context) }
    }

    /// Sends one command (each argument binary-safe) and reads its reply.
    public func call(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// Sends the commands in one write and reads their replies in order: one round trip.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        guard let context else { throw RedisError(.io, "the connection to \(endpoint) is closed") }
        for arguments in commands where !append(arguments, to: context) {
            throw failure(context, doing: "send a command")
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for _ in commands { replies.append(try nextReply()) }
        return replies
    }

    /// Reads the next reply (a pub/sub message, once subscribed), waiting as long as the timeout allows.
    public func nextReply() throws(RedisError) -> RedisReply {
        guard let context else { throw RedisError(.io, "the connection to \(endpoint) is closed") }
        var raw: UnsafeMutableRawPointer?
        guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
            throw failure(context, doing: "read a reply")
        }
        defer { freeReplyObject(raw) }
        return Self.convert(raw.assumingMemoryBound(to: redisReply.self))
    }

    private func append(_ arguments: [[UInt8]], to context: UnsafeMutablePointer<redisContext>) -> Bool {
        // hiredis copies the arguments into its output buffer before returning.
        let lengths = arguments.map(\.count)
        let copies = arguments.map { bytes -> UnsafeMutablePointer<CChar> in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawPointer(pointer).copyMemory(from: source.baseAddress ?? UnsafeRawPointer(pointer), byteCount: bytes.count)
            }
            return pointer
        }
        defer { copies.forEach { $0.deallocate() } }
        var argv: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        return lengths.withUnsafeBufferPointer { lengthPointer in
            argv.withUnsafeMutableBufferPointer { argvPointer in
                redisAppendCommandArgv(context, Int32(arguments.count), argvPointer.baseAddress, lengthPointer.baseAddress)
                    == REDIS_OK
            }
        }
    }

    private func failure(_ context: UnsafeMutablePointer<redisContext>, doing what: String) -> RedisError {
        let code = context.pointee.err
        var message = String(cString: lp_redis_error(context))
        var kind: RedisError.Kind = code == REDIS_ERR_PROTOCOL ? .protocolError : .io
        // hiredis reports its socket timeout as the errno it met (EAGAIN).
        if code == REDIS_ERR_IO, message.isEmpty || message.contains("Resource temporarily unavailable") {
            message = "no reply in time"
            kind = .timedOut
        }
        close()
        return RedisError(kind, "cannot \(what) on \(endpoint): \(message)")
    }

    /// Depth beyond which a reply is not read further (Redis's own replies here are at most two deep).
    private static let maximumDepth = 8

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>, depth: Int = 0) -> RedisReply {
        let value = reply.pointee
        func bytes() -> [UInt8] {
            guard let text = value.str, value.len > 0 else { return [] }
            return Array(UnsafeRawBufferPointer(start: text, count: Int(clamping: value.len)))
        }
        switch value.type {
        case REDIS_REPLY_STRING: return .string(bytes())
        case REDIS_REPLY_STATUS: return .status(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_ERROR: return .error(String(decoding: bytes(), as: UTF8.self))
        case REDIS_REPLY_INTEGER: return .integer(Int(clamping: value.integer))
        case REDIS_REPLY_ARRAY:
            guard depth < maximumDepth, let elements = value.element else { return .array([]) }
            let count = Int(clamping: value.elements)
            return .array((0..<count).map { index in
                elements[index].map { convert($0, depth: depth + 1) } ?? .null
            })
        default: return .null
        }
    }

    private static func timeval(seconds: Double) -> timeval {
        let clamped = seconds.isFinite ? min(max(seconds, 0.001), 3600) : 3600
        let whole = clamped.rounded(.down)
        return Glibc.timeval(tv_sec: Int(whole), tv_usec: Int((clamped - whole) * 1_000_000))
    }
}
