internal import CLibXML2

/// libxml2 must be initialized once, before any thread uses it; a global's
/// lazy initializer runs exactly once, whichever thread gets there first.
private let libxml2Initialized: Void = xmlInitParser()

/// A libxml2 HTML push parser reporting SAX events to an `ElementCollector`;
/// no tree is built. It is fed UTF-8 only (see `StreamDecoder`) and told to
/// ignore `<meta charset>`, which was handled before parsing started.
///
/// Not `Sendable`: libxml2 contexts belong to one thread at a time.
final class PushParser {
    private let context: htmlParserCtxtPtr
    /// Kept alive here because the C callbacks hold it unretained.
    private let collector: ElementCollector

    /// How much unparsed input libxml2 may hold. It keeps everything from
    /// the start of an unfinished construct (an unterminated comment or
    /// attribute value) until its end arrives, so without this a hostile
    /// page would grow memory without bound.
    static let maxPendingBytes = 4 << 20
    /// True once libxml2 held more than `maxPendingBytes`: further input is
    /// dropped, since nothing useful follows such a construct in practice.
    private(set) var stalled = false
    /// True once the collector is full: the rest of the input goes through
    /// the gate only (see `parse`).
    private(set) var recordingEnded = false
    /// A cut-off end tag waiting for the rest of itself (see `parseHoldingBack`).
    private var heldBack = CarryOver()
    /// Holds back constructs cut by a chunk boundary (see `TagGate`).
    private var gate = TagGate()

    init?(collector: ElementCollector) {
        _ = libxml2Initialized
        var handler = htmlSAXHandler()
        // Each callback borrows the collector (`withCollector`) instead of
        // taking a strong reference: no retain and release per event.
        handler.startElement = { userData, name, attributes in
            guard let userData, let name else { return }
            PushParser.withCollector(userData) { collector in
                let tag = ElementTag(cString: name)
                // A full collector only needs to hear where the body starts.
                if collector.isFull {
                    if tag.name == .body || tag.name == .frameset { collector.bodyStarted() }
                    return
                }
                collector.start(tag, AttributeList(pairs: attributes))
            }
        }
        handler.endElement = { userData, name in
            guard let userData, let name else { return }
            PushParser.withCollector(userData) { collector in
                let element = ElementName(cString: name)
                if collector.isFull {
                    if element == .head { collector.bodyStarted() }
                    return
                }
                // Most end tags only close a level.
                if collector.needsEndTagName || PushParser.endMatters(element) {
                    collector.end(element)
                } else {
                    collector.endUnnamed()
                }
            }
        }
        // Text, whitespace-only text and script bodies (libxml2 reports the
        // content of <script> and <style> as CDATA) all go the same way.
        let text: charactersSAXFunc = { userData, bytes, length in
            guard let userData, let bytes, length > 0 else { return }
            PushParser.withCollector(userData) { $0.text(UnsafeRawBufferPointer(start: bytes, count: Int(length))) }
        }
        handler.characters = text
        handler.ignorableWhitespace = text
        handler.cdataBlock = text
        // The structured error handler is only consulted for SAX2 handlers;
        // a no-op one keeps libxml2 from printing parse errors to stderr
        // (the variadic `error` callback cannot be written in Swift).
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.serror = { _, _ in }
        let userData = Unmanaged.passUnretained(collector).toOpaque()
        guard let context = htmlCreatePushParserCtxt(&handler, userData, nil, 0, nil, XML_CHAR_ENCODING_UTF8) else {
            return nil
        }
        let options = HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
        htmlCtxtUseOptions(context, Int32(options))
        self.context = context
        self.collector = collector
    }

    /// Calls `body` with the collector behind libxml2's user data, borrowed:
    /// the parser keeps it alive (`collector`) for as long as libxml2 can
    /// call back, so the callbacks need not retain it (the retains and
    /// releases were ~1.3% of a fetch's samples).
    private static func withCollector(_ userData: UnsafeMutableRawPointer, _ body: (ElementCollector) -> Void) {
        Unmanaged<ElementCollector>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
    }

    /// The end tags `ElementCollector.end` acts on by name (besides closing a level).
    static func endMatters(_ name: ElementName) -> Bool {
        switch name {
        case .head, .script, .style, .svg, .math, .video, .audio: true
        default: false
        }
    }

    /// Whether libxml2's element name `name` is `expected` (ASCII, as libxml2 lowercases HTML names).
    static func named(_ name: UnsafePointer<xmlChar>, _ expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount
        for offset in 0..<count where name[offset] != expected.utf8Start[offset] { return false }
        return name[count] == 0
    }

    deinit {
        htmlFreeParserCtxt(context)
    }

    /// Parses a chunk of UTF-8. Events for complete constructs in it are
    /// delivered before this returns.
    func parse(_ bytes: UnsafeRawBufferPointer) {
        guard !stalled, !bytes.isEmpty else { return }
        if recordingEnded {
            // Only where the head ends is still looked for, by the gate alone.
            gate.feed(bytes) { _ in }
            if gate.headEndSeen, !collector.headComplete { collector.bodyStarted() }
            if gate.heldCount > PushParser.maxPendingBytes { stalled = true }
            return
        }
        gate.bodyText = collector.bodyText(insideElement: insideElement, after: gate.bodyText)
        gate.feed(bytes) { parseUngated($0) }
        if gate.heldCount > PushParser.maxPendingBytes { stalled = true }
        // Nothing more can be recorded (the caps never go down), so the rest
        // of the page cannot change the document, and libxml2 no longer gets
        // it: the gate alone looks for the end of the head (the fetch's stop
        // rule needs it), as written (`</head>`, `<body>`, `<frameset>`). An
        // end only implied (by a `<div>` or text) is not seen there: such a
        // page reads on to the byte cap, as a head that never ends does.
        // 2 MiB of `<title>t</title>` took ~75 ms of CPU in libxml2 after the
        // cap, looking for the end.
        if collector.isFull { recordingEnded = true }
    }

    /// True when libxml2 is inside an element other than `<html>` and
    /// `<head>`, where text would imply a `<body>` and a `<p>`.
    private var insideElement: Bool {
        guard let name = context.pointee.name else { return false }
        return !PushParser.named(name, "html") && !PushParser.named(name, "head")
    }

    private func parseUngated(_ bytes: UnsafeRawBufferPointer) {
        guard !stalled, !recordingEnded, !bytes.isEmpty else { return }
        if let joined = heldBack.take(prependingTo: bytes) {
            joined.withUnsafeBytes { parseHoldingBack($0) }
        } else {
            parseHoldingBack(bytes)
        }
    }

    /// Ends the input: libxml2 closes every open element.
    func finish() {
        gate.finish { parseUngated($0) }
        let rest = heldBack.takeAll()
        if !rest.isEmpty, !stalled, !recordingEnded {
            rest.withUnsafeBytes { push($0) }
        }
        htmlParseChunk(context, nil, 0, 1)
    }

    /// Passes `bytes` on, except a trailing cut-off `</script` or `</style`.
    ///
    /// libxml2 2.9's push parser, when a chunk ends inside the end tag of a
    /// script or style element (`</sty`), takes those bytes for element
    /// content and never sees the end tag: the rest of the head would vanish
    /// into the `<style>`. Holding the few bytes back until the next chunk
    /// avoids the bad cut.
    private func parseHoldingBack(_ bytes: UnsafeRawBufferPointer) {
        let keep = PushParser.cutEndTagLength(bytes)
        push(UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.count - keep)]))
        if keep > 0 {
            heldBack.keep(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - keep)...]))
        }
    }

    /// The length of a proper prefix of `</script` or `</style` ending `bytes`
    /// (case-insensitively), or 0.
    static func cutEndTagLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        let searchStart = max(0, bytes.count - 8)
        guard let lessThan = bytes[searchStart...].lastIndex(of: UInt8(ascii: "<")) else { return 0 }
        let tail = bytes[lessThan...]
        let isCut = ["</script", "</style"].contains { tag in
            tail.count < tag.utf8.count && zip(tail, tag.utf8).allSatisfy { ByteCursor.lower($0) == $1 }
        }
        return isCut ? tail.count : 0
    }

    private func push(_ bytes: UnsafeRawBufferPointer) {
        guard !stalled, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // libxml2 2.9 caches how far a look-ahead (for `</` after script or
        // style content, `<`, `>`) has scanned in `checkIndex`, and does not
        // always clear it when the parser moves on: a stale index skips past
        // the `</head>` it should find, and the parser then stalls until the
        // input ends (seen on pages with several scripts and styles in the
        // head). The index is only a cache: clearing it costs a rescan of the
        // pending input, never correctness.
        context.pointee.checkIndex = 0
        htmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
        if let input = context.pointee.input?.pointee, let current = input.cur, let end = input.end,
           end - current > PushParser.maxPendingBytes {
            stalled = true
        }
    }
}
