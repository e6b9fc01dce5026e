/// Bytes a streaming stage could not use yet — a multi-byte sequence or an
/// end tag cut by a chunk boundary — carried to the front of the next chunk.
///
/// The decoders and the push parser each keep one. `take(prependingTo:)`
/// returns a fresh array rather than lending a reused buffer, so the caller
/// may carry bytes over again while it works on the joined chunk; a carry
/// happens only at a cut, so the allocation is rare.
struct CarryOver {
    private var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }

    /// Keeps `tail` for the next chunk (after anything already kept).
    mutating func keep(_ tail: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: tail)
    }

    /// The kept bytes followed by `input`, or nil when nothing is kept; the
    /// kept bytes are forgotten either way.
    mutating func take(prependingTo input: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        var joined = bytes
        joined.append(contentsOf: input)
        bytes.removeAll(keepingCapacity: true)
        return joined
    }

    /// The kept bytes alone (at the end of the input), forgotten.
    mutating func takeAll() -> [UInt8] {
        defer { bytes.removeAll() }
        return bytes
    }
}
