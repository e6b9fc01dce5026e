internal import CInflate

/// A response body's content codings (`Content-Encoding`), undone by
/// linkpeek rather than by curl, and only as far as the consumer reads.
///
/// curl inflates every chunk it receives in full, and goes on inflating
/// what it drains after the consumer stopped. This decoder inflates a chunk
/// in steps of at most `stepBytes` decoded bytes, hands each step on, and
/// stops inflating as soon as the receiver says it has enough: the rest of
/// the chunk, and of the response, stays encoded.
///
/// Codings: `gzip` (and `x-gzip`), every member of a multi-member stream;
/// `deflate`, zlib-wrapped or raw (as curl and browsers accept both);
/// `identity` is nothing. A list (`gzip, identity`, `deflate, gzip`) is
/// undone last coding first. Anything else (br, zstd, compress) is not
/// decoded: `init(contentEncoding:)` returns nil, and linkpeek does not ask
/// for it (`EasyHandle.acceptEncoding`).
///
/// - Important: not Sendable: one transfer's, on its curl thread.
final class ContentDecoder {
    enum Coding: Equatable {
        case gzip, deflate
    }

    /// What the decoder did with a chunk.
    enum Outcome: Equatable {
        /// Every byte of the chunk was decoded and handed on.
        case consumed
        /// The receiver said it had enough: the rest of the chunk was not decoded.
        case stopped
        /// The bytes are not a stream of the coding; the sentence says why.
        case failed(String)
    }

    /// The most decoded bytes handed on at once (curl's own decoding step, so
    /// the consumer sees chunks of the same sizes as when curl decoded).
    static let stepBytes = 16 * 1024
    /// The most codings in one list (curl's own limit is 5).
    static let maximumCodings = 4

    /// Undoes the codings in the order given (last applied first).
    private let stages: [Inflater]

    /// The codings of a `Content-Encoding` value, in the order they are
    /// undone; [] for none or identity; nil when one is not decoded here.
    static func codings(of contentEncoding: String) -> [Coding]? {
        var codings: [Coding] = []
        for item in contentEncoding.split(separator: ",") {
            let name = item.utf8.filter { $0 != 0x20 && $0 != 0x09 }.map { (65...90).contains($0) ? $0 + 32 : $0 }
            switch String(decoding: name, as: UTF8.self) {
            case "", "identity": continue
            case "gzip", "x-gzip": codings.append(.gzip)
            case "deflate": codings.append(.deflate)
            default: return nil
            }
        }
        guard codings.count <= maximumCodings else { return nil }
        return codings.reversed()
    }

    /// A decoder for the codings given in the order they are undone; nil for none.
    init?(codings: [Coding]) {
        guard !codings.isEmpty else { return nil }
        stages = codings.map(Inflater.init)
    }

    /// Decodes `bytes` (the next part of the body as sent), handing each
    /// step of decoded bytes to `deliver`, which returns false to stop.
    func decode(_ bytes: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> Outcome {
        decode(bytes, stage: 0, deliver: deliver)
    }

    private func decode(
        _ bytes: UnsafeRawBufferPointer, stage: Int, deliver: (UnsafeRawBufferPointer) -> Bool
    ) -> Outcome {
        guard stage + 1 < stages.count else { return stages[stage].run(bytes, deliver: deliver) }
        // Each step of this stage is undone by the next before this stage goes on.
        var inner = Outcome.consumed
        let outer = stages[stage].run(bytes) { step in
            inner = decode(step, stage: stage + 1, deliver: deliver)
            return inner == .consumed
        }
        return inner == .consumed ? outer : inner
    }
}

/// One coding's zlib stream, and the step buffer it inflates into.
private final class Inflater {
    let coding: ContentDecoder.Coding
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var state = State.starting
    /// A deflate stream's first byte, while its second (which says zlib or raw) has not come.
    private var firstByte: UInt8?

    enum State {
        /// No byte decoded yet: zlib is not set up.
        case starting
        case running
        /// A stream (a gzip member) ended: what follows must be another member.
        case ended
        case failed
    }

    init(coding: ContentDecoder.Coding) {
        self.coding = coding
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: ContentDecoder.stepBytes, alignment: 16)
    }

    deinit {
        if state != .starting { _ = lp_inflate_end(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    func run(_ bytes: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> ContentDecoder.Outcome {
        guard state != .failed else { return .failed("the stream failed before") }
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .consumed }
        if state == .starting {
            var zlibHeader = false
            if coding == .deflate {
                // Its first two bytes say zlib or raw; the first may come alone.
                guard let first = firstByte ?? (bytes.count >= 2 ? bytes[0] : nil) else {
                    firstByte = bytes[0]
                    return .consumed
                }
                zlibHeader = Self.isZlibHeader(first, firstByte == nil ? bytes[1] : bytes[0])
            }
            if let failure = start(zlibHeader: zlibHeader) { return fail(failure) }
            if let held = firstByte {
                firstByte = nil
                var byte = held
                let outcome = withUnsafeBytes(of: &byte) { inflate(from: $0, deliver: deliver) }
                guard outcome == .consumed else { return outcome }
            }
        }
        return inflate(from: UnsafeRawBufferPointer(start: base, count: bytes.count), deliver: deliver)
    }

    /// Sets zlib up: gzip or zlib headers for gzip (as curl does), and for
    /// deflate a zlib stream when its first two bytes are a zlib header, else raw.
    private func start(zlibHeader: Bool) -> String? {
        let windowBits: Int32 = coding == .gzip ? 15 + 32 : (zlibHeader ? 15 : -15)
        let status = lp_inflate_init(stream, windowBits)
        guard status == Z_OK else {
            return status == Z_VERSION_ERROR ? "zlib could not be loaded" : "zlib could not start (\(status))"
        }
        state = .running
        return nil
    }

    /// True when two bytes are a zlib stream's header (RFC 1950: deflate, a window ≤ 32 KiB, check bits).
    static func isZlibHeader(_ first: UInt8, _ second: UInt8) -> Bool {
        first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }

    private func inflate(from bytes: UnsafeRawBufferPointer, deliver: (UnsafeRawBufferPointer) -> Bool) -> ContentDecoder.Outcome {
        guard let base = bytes.baseAddress else { return .consumed }
        defer { stream.pointee.next_in = nil; stream.pointee.avail_in = 0 }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        // Safe: a curl chunk (at most CURL_MAX_READ_SIZE) or a step, far below 4 GiB.
        stream.pointee.avail_in = uInt(bytes.count)
        while true {
            if state == .ended {
                guard stream.pointee.avail_in > 0 else { return .consumed }
                // Bytes after a stream: only another gzip member may follow.
                guard coding == .gzip, lp_inflate_reset(stream) == Z_OK else {
                    return fail("bytes after the end of the \(coding == .gzip ? "gzip" : "deflate") stream")
                }
                state = .running
            }
            stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(output.count)
            let status = lp_inflate(stream, Z_NO_FLUSH)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0, !deliver(UnsafeRawBufferPointer(rebasing: output[0..<produced])) { return .stopped }
            switch status {
            case Z_STREAM_END:
                state = .ended
            case Z_OK, Z_BUF_ERROR:
                // More output may wait only when the step was filled; else zlib needs more input.
                if stream.pointee.avail_out > 0 {
                    if stream.pointee.avail_in == 0 { return .consumed }
                    if produced == 0, status == Z_BUF_ERROR { return fail("zlib made no progress") }
                }
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                return fail(reason)
            }
        }
    }

    private func fail(_ reason: String) -> ContentDecoder.Outcome {
        state = .failed
        return .failed(reason)
    }
}
