/// Passes UTF-8 through to the parser, replacing what libxml2 must not see.
///
/// libxml2's HTML parser, on the first invalid UTF-8 byte, decides the
/// document was Latin-1 after all and switches encoding, garbling the rest;
/// and in push mode a NUL byte looks like the end of the buffer and stalls
/// it. So invalid sequences and NUL become U+FFFD here, and a sequence cut
/// by a chunk boundary waits in `tail` for the next chunk.
struct UTF8Sanitizer {
    private var tail = CarryOver()
    private var output: [UInt8] = []

    static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Sanitizes `input`; `sink` receives valid UTF-8 without NUL, possibly
    /// the caller's own bytes (no copy when nothing needed fixing).
    mutating func sanitize(_ input: UnsafeRawBufferPointer, isFinal: Bool, _ sink: (UnsafeRawBufferPointer) -> Void) {
        if let joined = tail.take(prependingTo: input) {
            joined.withUnsafeBytes { run($0, isFinal: isFinal, sink) }
        } else {
            run(input, isFinal: isFinal, sink)
        }
    }

    private mutating func run(_ input: UnsafeRawBufferPointer, isFinal: Bool, _ sink: (UnsafeRawBufferPointer) -> Void) {
        let count = input.count
        var index = 0
        var runStart = 0
        var dirty = false
        while index < count {
            // Eight ASCII bytes at a time, none of them NUL: the common case.
            if index + 8 <= count {
                let word = input.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let highBits: UInt64 = 0x8080_8080_8080_8080
                if word & highBits == 0, (word &- 0x0101_0101_0101_0101) & ~word & highBits == 0 {
                    index += 8
                    continue
                }
            }
            let byte = input[index]
            if byte != 0, byte < 0x80 {
                index += 1
                continue
            }
            let step = byte == 0 ? -1 : UTF8Scan.classify(input, at: index)
            if step > 0 {
                index += step
                continue
            }
            // Something to fix: copy the clean run before it, then handle it.
            if !dirty {
                output.removeAll(keepingCapacity: true)
                dirty = true
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[runStart..<index]))
            if step == 0 && !isFinal {
                tail.keep(UnsafeRawBufferPointer(rebasing: input[index..<count]))
                index = count
            } else {
                output.append(contentsOf: UTF8Sanitizer.replacement)
                index = step == 0 ? count : index - step
            }
            runStart = index
        }
        if !dirty {
            if count > 0 { sink(input) }
            return
        }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[runStart..<count]))
        if !output.isEmpty { output.withUnsafeBytes(sink) }
    }
}
