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

    init?(collector: ElementCollector) {
        _ = libxml2Initialized
        var handler = htmlSAXHandler()
        handler.startElement = { userData, name, attributes in
            guard let userData, let name else { return }
            let collector = Unmanaged<ElementCollector>.fromOpaque(userData).takeUnretainedValue()
            collector.start(String(cString: name), AttributeList(pairs: attributes))
        }
        handler.endElement = { userData, name in
            guard let userData, let name else { return }
            Unmanaged<ElementCollector>.fromOpaque(userData).takeUnretainedValue().end(String(cString: name))
        }
        // Text, whitespace-only text and script bodies (libxml2 reports the
        // content of <script> and <style> as CDATA) all go the same way.
        let text: charactersSAXFunc = { userData, bytes, length in
            guard let userData, let bytes, length > 0 else { return }
            Unmanaged<ElementCollector>.fromOpaque(userData).takeUnretainedValue()
                .text(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
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

    deinit {
        htmlFreeParserCtxt(context)
    }

    /// Parses a chunk of UTF-8. Events for complete constructs in it are
    /// delivered before this returns.
    func parse(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        htmlParseChunk(context, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 0)
    }

    /// Ends the input: libxml2 closes every open element.
    func finish() {
        htmlParseChunk(context, nil, 0, 1)
    }
}
