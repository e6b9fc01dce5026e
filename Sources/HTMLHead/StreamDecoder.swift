/// Turns the raw bytes of a document in a known encoding into clean UTF-8
/// for libxml2, chunk by chunk, whatever the chunk boundaries.
final class StreamDecoder {
    private enum Stage {
        case utf8
        case singleByte
        case iconv(IconvDecoder)
        case replacement(emitted: Bool)
    }

    private var stage: Stage
    /// Kept outside `stage` so decoding mutates its buffer in place.
    private var singleByte = SingleByteDecoder(table: .windows1252)
    /// Every path ends here: it replaces NUL and anything invalid.
    private var sanitizer = UTF8Sanitizer()

    /// A decoder for `encoding`; when the C library cannot convert it (a
    /// missing gconv module), windows-1252 is used, since reading something
    /// beats reading nothing.
    init(encoding: WHATWGEncoding) {
        switch encoding.decoder {
        case .utf8:
            stage = .utf8
        case .windows1252:
            stage = .singleByte
        case .userDefined:
            stage = .singleByte
            singleByte = SingleByteDecoder(table: .userDefined)
        case .replacement:
            stage = .replacement(emitted: false)
        case .iconv(let names, let unit):
            if let decoder = IconvDecoder(names: names, unit: unit) {
                stage = .iconv(decoder)
            } else {
                stage = .singleByte
            }
        }
    }

    /// Decodes one chunk; `isFinal` flushes what waits for more bytes.
    func decode(_ input: UnsafeRawBufferPointer, isFinal: Bool, _ sink: (UnsafeRawBufferPointer) -> Void) {
        switch stage {
        case .utf8:
            sanitizer.sanitize(input, isFinal: isFinal, sink)
        case .singleByte:
            // Its output is valid by construction; no sanitizer pass needed.
            singleByte.decode(input, sink)
        case .iconv(let decoder):
            decoder.decode(input, isFinal: isFinal) { sanitizer.sanitize($0, isFinal: isFinal, sink) }
        case .replacement(let emitted):
            // The standard decodes these (unsafe, ISO-2022-KR-like) encodings
            // to a single U+FFFD so nothing in them can be misread.
            if !emitted, !input.isEmpty {
                UTF8Sanitizer.replacement.withUnsafeBytes(sink)
                stage = .replacement(emitted: true)
            }
        }
    }
}
