extension MessageFramer {
    /// The header fields that matter, gathered line by line.
    struct HeaderBlock: Sendable {
        var lineCount = 0
        var contentLength: String?
        var malformed = false
    }

    /// Advances the state machine by one step; false when it needs more input.
    mutating func step(_ events: inout [FramerEvent]) -> Bool {
        switch state {
        case .detect:
            while start < buffer.count, isWhitespace(buffer[start]) { start += 1 }
            guard start < buffer.count else { return false }
            let framing = Framing(firstByte: buffer[start])
            self.framing = framing
            state = framing == .lsp ? .header(HeaderBlock()) : .line
            return true

        case .header(var block):
            guard let newline = nextNewline() else {
                if buffer.count - start > Self.maxHeaderLine {
                    events.append(.error(.invalidRequest("Invalid request: header line too long")))
                    start = buffer.count
                    state = .resync
                    return true
                }
                return false
            }
            let line = takeLine(endingAt: newline)
            if line.isEmpty {
                // Blank lines between messages are tolerated; a blank line after headers ends the block.
                if block.lineCount > 0 { endHeaderBlock(block, &events) }
                return true
            }
            block.lineCount += 1
            if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: line[..<colon], as: UTF8.self)
                if name.lowercased() == "content-length" {
                    block.contentLength = String(decoding: line[(colon + 1)...], as: UTF8.self)
                }
            } else {
                block.malformed = true
            }
            state = .header(block)
            return true

        case .body(let length):
            guard buffer.count - start >= length else { return false }
            events.append(.message(Array(buffer[start..<(start + length)])))
            start += length
            scanned = start
            state = .header(HeaderBlock())
            return true

        case .skip(let remaining):
            let available = min(remaining, buffer.count - start)
            start += available
            scanned = start
            if remaining - available == 0 {
                state = .header(HeaderBlock())
                return true
            }
            state = .skip(remaining - available)
            return false

        case .resync:
            return resync()

        case .line:
            guard let newline = nextNewline() else {
                if buffer.count - start > maxMessageSize {
                    events.append(.error(.messageTooLarge))
                    start = buffer.count
                    state = .skipLine
                }
                return false
            }
            let line = takeLine(endingAt: newline)
            if line.contains(where: { !isWhitespace($0) }) {
                emitLine(line, into: &events)
            }
            return true

        case .skipLine:
            guard let newline = nextNewline() else {
                start = buffer.count
                return false
            }
            start = newline + 1
            scanned = start
            state = .line
            return true
        }
    }

    private mutating func endHeaderBlock(_ block: HeaderBlock, _ events: inout [FramerEvent]) {
        let text = block.contentLength?.trimmingSpaces ?? ""
        if block.malformed {
            events.append(.error(.invalidRequest("Invalid request: malformed header line")))
            state = .resync
        } else if block.contentLength == nil {
            events.append(.error(.invalidRequest("Invalid request: missing Content-Length header")))
            state = .resync
        } else if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // All digits; too many digits to fit an Int is "too large" but cannot be skipped exactly.
            guard let length = Int(text) else {
                events.append(.error(.messageTooLarge))
                state = .resync
                return
            }
            if length > maxMessageSize {
                events.append(.error(.messageTooLarge))
                state = .skip(length)
            } else {
                state = .body(length)
            }
        } else {
            events.append(.error(.invalidRequest("Invalid request: invalid Content-Length: \(text)")))
            state = .resync
        }
    }

    /// Drops input up to the next `Content-Length` (any case), where a new
    /// header block starts.
    private mutating func resync() -> Bool {
        let needle = Array("content-length".utf8)
        var index = start
        while index + needle.count <= buffer.count {
            var matched = true
            for offset in 0..<needle.count where buffer[index + offset] | 0x20 != needle[offset] | 0x20 {
                matched = false
                break
            }
            if matched {
                start = index
                scanned = start
                state = .header(HeaderBlock())
                return true
            }
            index += 1
        }
        // Keep a tail that may be the start of the needle.
        start = max(start, buffer.count - (needle.count - 1))
        scanned = start
        return false
    }
}

extension String {
    var trimmingSpaces: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
