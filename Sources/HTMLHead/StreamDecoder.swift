/// Turns the raw bytes of a document in a known encoding into clean UTF-8
/// for libxml2, chunk by chunk, whatever the chunk boundaries.
///
/// A declared legacy encoding (HTTP charset or `<meta>`) is watched first:
/// pages re-saved as UTF-8 by tools that kept the old `<meta charset>` come
/// out as mojibake otherwise. See `watch`.
final class StreamDecoder {
    private enum Stage {
        case utf8
        case singleByte
        case iconv(IconvDecoder)
        case replacement(emitted: Bool)
        /// Undecided between a declared legacy encoding and UTF-8 (see `watch`).
        case watching(declared: WHATWGEncoding)
    }

    private var stage: Stage
    /// Kept outside `stage` so decoding mutates its buffer in place.
    private var singleByte = SingleByteDecoder(table: .windows1252)
    /// Every path ends here: it replaces NUL and anything invalid.
    private var sanitizer = UTF8Sanitizer()
    /// While watching: the bytes from the first non-ASCII one on, held back.
    private var evidence: [UInt8] = []
    /// The declared encoding that was set aside for UTF-8, if it was.
    private(set) var declaredEncodingThatDidNotFit: WHATWGEncoding?

    /// Bytes from the first non-ASCII byte on that decide a watched encoding.
    static let evidenceLength = 1024

    /// A decoder for `encoding`; when the C library cannot convert it (a
    /// missing gconv module), windows-1252 is used, since reading something
    /// beats reading nothing. `declared`: the encoding came from the HTTP
    /// charset, a `<meta>` or an XML declaration (not a byte order mark and
    /// not a guess), so the bytes may prove it wrong.
    init(encoding: WHATWGEncoding, declared: Bool = false) {
        stage = .utf8
        if declared, Self.sharesASCII(encoding) {
            stage = .watching(declared: encoding)
        } else {
            use(encoding)
        }
    }

    private func use(_ encoding: WHATWGEncoding) {
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
        case .watching(let declared):
            watch(input, declared: declared, isFinal: isFinal, sink)
        }
    }

    /// ASCII means the same in the declared encoding and in UTF-8, so it goes
    /// through at once. From the first other byte on, `evidenceLength` bytes
    /// are held back and then decide: when they are valid UTF-8 with
    /// multi-byte sequences and the declared encoding decodes them to
    /// U+FFFD, the page is UTF-8 whatever it declared; otherwise the
    /// declaration stands.
    private func watch(
        _ input: UnsafeRawBufferPointer, declared: WHATWGEncoding, isFinal: Bool,
        _ sink: (UnsafeRawBufferPointer) -> Void
    ) {
        var rest = input[...]
        if evidence.isEmpty {
            let asciiEnd = input.firstIndex { $0 >= 0x80 } ?? input.endIndex
            if asciiEnd > input.startIndex {
                sanitizer.sanitize(UnsafeRawBufferPointer(rebasing: input[..<asciiEnd]), isFinal: false, sink)
            }
            rest = input[asciiEnd...]
        }
        evidence.append(contentsOf: rest)
        guard isFinal || evidence.count >= Self.evidenceLength else { return }
        if !evidence.isEmpty, Self.isUTF8(evidence, misreadAs: declared) {
            declaredEncodingThatDidNotFit = declared
            stage = .utf8
        } else {
            use(declared)
        }
        let held = evidence
        evidence = []
        held.withUnsafeBytes { decode($0, isFinal: isFinal, sink) }
    }

    /// True when `bytes` are valid UTF-8 (a sequence cut at the end allowed)
    /// with at least one multi-byte sequence, and `declared` decodes them to
    /// at least one U+FFFD.
    static func isUTF8(_ bytes: [UInt8], misreadAs declared: WHATWGEncoding) -> Bool {
        guard bytes.contains(where: { $0 >= 0xC2 }), EncodingSniffer.isValidUTF8Prefix(bytes) else { return false }
        var output: [UInt8] = []
        bytes.withUnsafeBytes { StreamDecoder(encoding: declared).decode($0, isFinal: false) { output += $0 } }
        let replacement = UTF8Sanitizer.replacement
        return output.indices.dropLast(2).contains { output[$0..<$0 + 3].elementsEqual(replacement) }
    }

    /// Whether `encoding` is worth watching: every ASCII byte decodes to
    /// itself whatever came before, and some bytes decode to U+FFFD. True for
    /// the byte-oriented iconv encodings; not UTF-16, not ISO-2022-JP (its
    /// ASCII escapes switch its state), and not windows-1252, which maps
    /// every byte to a character and so never shows a misfit.
    static func sharesASCII(_ encoding: WHATWGEncoding) -> Bool {
        switch encoding.decoder {
        case .iconv(_, let unit): unit == 1 && encoding.name != "ISO-2022-JP"
        case .utf8, .windows1252, .userDefined, .replacement: false
        }
    }
}
