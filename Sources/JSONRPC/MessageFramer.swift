/// Incremental parser that cuts an input stream into message bodies. It can
/// be fed arbitrary chunks, one byte at a time included, and never holds more
/// than one message (at most `maxMessageSize`) plus one chunk in memory.
///
/// The framing is chosen by the first non-whitespace byte (see `Framing`).
/// Errors are reported as events and the parser stays in sync:
/// - a `Content-Length` above `maxMessageSize` (or an NDJSON line longer than
///   it): the body is skipped as it arrives, never stored, and answered
///   "message too large";
/// - a header block with a missing, negative or non-numeric `Content-Length`,
///   or a malformed header line: answered, then input is discarded up to the
///   next `Content-Length` header;
/// - end of input inside a message: answered as a parse error.
///
/// Not thread-safe: one reader owns it.
public struct MessageFramer: Sendable {
    public static let defaultMaxMessageSize = 16 * 1024 * 1024
    /// Longest header line kept; a longer one is malformed.
    static let maxHeaderLine = 8 * 1024

    public let maxMessageSize: Int
    /// Nil until the first non-whitespace byte arrives.
    public internal(set) var framing: Framing?

    enum State: Sendable {
        case detect
        case header(HeaderBlock)
        case body(Int)
        case skip(Int)
        case resync
        case line
        case skipLine
    }

    var state: State = .detect
    var buffer: [UInt8] = []
    /// Bytes before `start` are consumed.
    var start = 0
    /// Bytes before `scanned` are known to hold no newline.
    var scanned = 0

    public init(maxMessageSize: Int = MessageFramer.defaultMaxMessageSize) {
        self.maxMessageSize = maxMessageSize
    }

    /// Adds bytes read from the stream; returns what they completed.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [FramerEvent] {
        buffer.append(contentsOf: bytes)
        var events: [FramerEvent] = []
        while step(&events) {}
        compact()
        return events
    }

    /// The stream ended: reports a message cut short, and takes a last NDJSON
    /// line that lacks its newline.
    public mutating func finish() -> [FramerEvent] {
        var events: [FramerEvent] = []
        let rest = buffer[start...]
        switch state {
        case .body:
            events.append(.error(.parseError("Parse error: message truncated at end of input")))
        case .header:
            if rest.contains(where: { !isWhitespace($0) }) {
                events.append(.error(.parseError("Parse error: header truncated at end of input")))
            }
        case .line:
            if rest.contains(where: { !isWhitespace($0) }) {
                emitLine(rest, into: &events)
            }
        case .detect, .skip, .resync, .skipLine:
            break
        }
        buffer = []
        start = 0
        scanned = 0
        state = .detect
        return events
    }

    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
            scanned = 0
        } else if start > 1 << 16 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
    }

    func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The index of the next newline at or after `start`, scanning each byte once.
    mutating func nextNewline() -> Int? {
        var index = max(scanned, start)
        while index < buffer.count {
            if buffer[index] == 0x0A { return index }
            index += 1
        }
        scanned = index
        return nil
    }

    /// The bytes before the newline at `index`, without a trailing `\r`;
    /// consumes them and the newline.
    mutating func takeLine(endingAt index: Int) -> ArraySlice<UInt8> {
        var end = index
        if end > start, buffer[end - 1] == 0x0D { end -= 1 }
        let line = buffer[start..<end]
        start = index + 1
        scanned = start
        return line
    }

    mutating func emitLine(_ line: ArraySlice<UInt8>, into events: inout [FramerEvent]) {
        if line.count > maxMessageSize {
            events.append(.error(.messageTooLarge))
        } else {
            events.append(.message(Array(line)))
        }
    }
}
