#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Incremental decoding to UTF-8 with the C library's `iconv`, for the
/// multi-byte and less common single-byte encodings.
///
/// A multi-byte sequence cut by a chunk boundary is kept in `tail` until the
/// next chunk; an invalid sequence becomes U+FFFD and decoding resumes one
/// code unit later, as a browser would.
final class IconvDecoder {
    private let descriptor: iconv_t
    private let unit: Int
    private var tail = CarryOver()
    private var output: UnsafeMutableRawBufferPointer

    /// Opens a converter from the first of `names` the C library knows.
    init?(names: [String], unit: Int) {
        let invalid = iconv_t(bitPattern: -1)
        guard let opened = names.lazy.map({ iconv_open("UTF-8", $0) }).first(where: { $0 != invalid }),
              let descriptor = opened else { return nil }
        self.descriptor = descriptor
        self.unit = unit
        self.output = .allocate(byteCount: 16 * 1024, alignment: 1)
    }

    deinit {
        iconv_close(descriptor)
        output.deallocate()
    }

    /// Decodes `input`; `sink` receives UTF-8 (possibly containing U+0000,
    /// which the caller's sanitizer replaces).
    func decode(_ input: UnsafeRawBufferPointer, isFinal: Bool, _ sink: (UnsafeRawBufferPointer) -> Void) {
        if let joined = tail.take(prependingTo: input) {
            joined.withUnsafeBytes { convert($0, isFinal: isFinal, sink) }
        } else {
            convert(input, isFinal: isFinal, sink)
        }
    }

    private func convert(_ input: UnsafeRawBufferPointer, isFinal: Bool, _ sink: (UnsafeRawBufferPointer) -> Void) {
        guard let base = input.baseAddress, !input.isEmpty else {
            if isFinal { resetState() }
            return
        }
        // iconv never writes through the input pointer; its C signature just
        // lacks the const.
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inLeft = input.count
        var outPointer: UnsafeMutablePointer<CChar>? = output.baseAddress?.assumingMemoryBound(to: CChar.self)
        var outLeft = output.count
        func flush() {
            let produced = output.count - outLeft
            if produced > 0 { sink(UnsafeRawBufferPointer(rebasing: output[0..<produced])) }
            outPointer = output.baseAddress?.assumingMemoryBound(to: CChar.self)
            outLeft = output.count
        }
        func appendReplacement() {
            if outLeft < 3 { flush() }
            for byte in UTF8Sanitizer.replacement {
                outPointer?.pointee = CChar(bitPattern: byte)
                outPointer = outPointer?.advanced(by: 1)
            }
            outLeft -= 3
        }
        while inLeft > 0 {
            if iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft) != -1 { break }
            switch errno {
            case E2BIG:
                flush()
            case EINVAL where !isFinal:
                // An incomplete sequence at the end: wait for more bytes.
                if let pointer = inPointer {
                    tail.keep(UnsafeRawBufferPointer(start: pointer, count: inLeft))
                }
                inLeft = 0
            default:
                // EILSEQ (or EINVAL at the very end): replace one code unit.
                appendReplacement()
                let skip = min(unit, inLeft)
                inPointer = inPointer?.advanced(by: skip)
                inLeft -= skip
            }
        }
        flush()
        if isFinal { resetState() }
    }

    /// Returns a stateful converter (ISO-2022-JP) to its initial shift state.
    private func resetState() {
        iconv(descriptor, nil, nil, nil, nil)
    }
}
