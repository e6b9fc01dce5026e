/// Reads the head of an HTML document as its bytes arrive and collects the
/// elements that carry link-preview metadata.
///
/// Feed it the raw response body, in chunks of any size, then call
/// `finish()`. It first decides the encoding the WHATWG way (waiting for up
/// to 1,024 bytes when neither a byte order mark nor the HTTP charset
/// settles it), decodes to UTF-8 and drives a libxml2 HTML push parser.
///
/// Deliberately not `Sendable`: one owner feeds it, from one thread at a time.
///
/// For contributors, the pipeline: `EncodingSniffer` (with `MetaPrescan` and
/// the `WHATWGEncoding` label table) picks the encoding; `StreamDecoder`
/// turns raw chunks into clean UTF-8 (`IconvDecoder`, `SingleByteDecoder`,
/// `UTF8Sanitizer`); `PushParser` owns the libxml2 context and works around
/// its push-mode quirks; `ElementCollector` keeps what matters. Everything
/// except `PushParser` is pure Swift and tested directly on bytes; parser
/// behaviour is tested through `HeadScanner`, always also fed in small
/// chunks, since libxml2's bugs live at chunk boundaries.
public final class HeadScanner {
    /// How many raw bytes are decoded and parsed at a time, which is also how
    /// precisely `bytesAfterHead` is counted.
    private static let sliceLength = 4096

    private let httpCharset: String?
    private let collector: ElementCollector
    private var undecided: [UInt8] = []
    private var decoder: StreamDecoder?
    private var parser: PushParser?
    private var finished = false

    /// True once `</head>` or the start of the body (explicit or implied) was
    /// seen (past the element cap only an explicit one: `HeadDocument.headComplete`).
    public private(set) var headComplete = false
    /// Raw bytes fed after the head completed, to within one 4 KiB slice.
    public private(set) var bytesAfterHead = 0

    /// - Parameters:
    ///   - contentType: the HTTP `Content-Type` value, if any; its
    ///     `charset` parameter takes part in encoding sniffing.
    ///   - bodyRecords: the caller's words for body elements worth
    ///     recording besides the plain ones (bylines, author and media
    ///     links); none by default.
    public init(contentType: String?, bodyRecords: BodyRecords = BodyRecords()) {
        httpCharset = contentType.flatMap(EncodingSniffer.charset(fromContentType:))
        var limits = ElementCollector.Limits()
        limits.fallbacks.records = bodyRecords
        collector = ElementCollector(limits: limits)
    }

    /// What has been seen so far, including the partial text of a title
    /// (or other captured element) still open.
    public var document: HeadDocument {
        var document = collector.snapshot
        if let declared = decoder?.declaredEncodingThatDidNotFit {
            document.encoding = WHATWGEncoding.utf8.name
            document.declaredEncodingThatDidNotFit = declared.name
        }
        return document
    }

    /// How many elements are recorded so far: what `document.elements.count`
    /// says, without building the document (which copies every element
    /// when a captured element is still open).
    public var elementCount: Int { collector.document.elements.count }

    /// Feeds the next chunk of the raw body.
    public func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !finished, !bytes.isEmpty else { return }
        guard decoder != nil else {
            undecided.append(contentsOf: bytes)
            // A `<meta>` can only have completed if a `>` just arrived; this
            // keeps byte-sized feeding from rerunning the prescan each time.
            let tagMayHaveEnded = bytes.contains(UInt8(ascii: ">"))
            if let result = readySniffResult(prescan: tagMayHaveEnded) { start(with: result) }
            return
        }
        process(bytes)
    }

    /// Feeds the next chunk of the raw body.
    public func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Ends the input: decides the encoding with what there is if needed,
    /// flushes buffered bytes and returns the final document. Idempotent.
    @discardableResult
    public func finish() -> HeadDocument {
        if !finished {
            if decoder == nil {
                start(with: EncodingSniffer.sniff(prefix: undecided, httpCharset: httpCharset))
            }
            decoder?.decode(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true) { parser?.parse($0) }
            parser?.finish()
            collector.closeAll()
            headComplete = collector.headComplete
            finished = true
        }
        return document
    }

    /// The sniffing result once the bytes seen so far settle the encoding:
    /// 1,024 bytes are in, or a byte order mark, a usable HTTP charset or a
    /// complete `<meta>` declaration decides it earlier.
    private func readySniffResult(prescan: Bool) -> EncodingSniffer.Result? {
        if undecided.count < EncodingSniffer.prescanLength {
            if EncodingSniffer.couldBecomeByteOrderMark(undecided) { return nil }
            let decided = EncodingSniffer.byteOrderMark(undecided) != nil
                || httpCharset.flatMap(WHATWGEncoding.init(label:)) != nil
                || (prescan && MetaPrescan.encoding(in: undecided) != nil)
            guard decided else { return nil }
        }
        return EncodingSniffer.sniff(prefix: undecided, httpCharset: httpCharset)
    }

    private func start(with result: EncodingSniffer.Result) {
        collector.setEncoding(result.encoding.name)
        let declared = [EncodingSniffer.Source.httpHeader, .metaTag, .xmlDeclaration].contains(result.source)
        decoder = StreamDecoder(encoding: result.encoding, declared: declared)
        parser = PushParser(collector: collector)
        let buffered = undecided
        undecided = []
        buffered.withUnsafeBytes { process(UnsafeRawBufferPointer(rebasing: $0[min(result.bomLength, $0.count)...])) }
    }

    /// Decodes and parses `bytes` slice by slice, counting body bytes.
    private func process(_ bytes: UnsafeRawBufferPointer) {
        guard let decoder else { return }
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + HeadScanner.sliceLength, bytes.count)
            let wasComplete = headComplete
            decoder.decode(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), isFinal: false) { parser?.parse($0) }
            if wasComplete { bytesAfterHead += end - offset }
            headComplete = collector.headComplete
            offset = end
        }
    }
}

/// One owner feeds a scanner; the compiler keeps it on that owner's side.
@available(*, unavailable)
extension HeadScanner: Sendable {}
