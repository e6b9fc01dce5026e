/// Turns the parser's start-tag, end-tag and text events into a
/// `HeadDocument`, keeping only what carries metadata.
///
/// It knows nothing of libxml2: events arrive as tag names and an
/// `AttributeList`, so it can be driven directly in tests. Memory is bounded
/// whatever the input: texts, attribute values, the element count and the
/// total recorded bytes all have caps.
final class ElementCollector {
    /// Caps that keep a hostile or huge page from growing memory without end.
    struct Limits {
        var titleBytes = 1 << 20
        var jsonLDBytes = 1 << 20
        var itempropBytes = 1024
        var attributeValueBytes = 64 * 1024
        var elements = 10_000
        var totalBytes = 16 << 20
        var openCaptures = 32
    }

    /// An element whose text is being collected until its end tag.
    struct Capture {
        enum Kind { case raw, trimmed }
        var index: Int
        var depth: Int
        var kind: Kind
        var limit: Int
        var bytes: [UInt8] = []
    }

    private(set) var document = HeadDocument()
    let limits: Limits
    private var depth = 0
    /// How many `<svg>`/`<math>` elements are open: a `<title>` inside them
    /// names a drawing, not the page.
    private var foreignDepth = 0
    private var captures: [Capture] = []
    private var recordedBytes = 0

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    var headComplete: Bool { document.headComplete }

    func setEncoding(_ name: String) {
        document.encoding = name
    }

    /// What has been collected so far, with the partial text of elements
    /// still open.
    var snapshot: HeadDocument {
        var result = document
        for capture in captures {
            result.elements[capture.index].text = ElementCollector.text(of: capture)
        }
        return result
    }

    /// Ends every open element, as at the end of input.
    func closeAll() {
        while let capture = captures.popLast() { finish(capture) }
    }

    func start(_ name: String, _ attributes: AttributeList) {
        depth += 1
        switch name {
        case "html":
            // XHTML pages may carry only the XML spelling.
            if document.htmlLang == nil, let lang = attributes.value(of: "lang") ?? attributes.value(of: "xml:lang") {
                document.htmlLang = lang
            }
        case "body", "frameset":
            document.headComplete = true
        case "svg", "math":
            foreignDepth += 1
        default:
            break
        }
        guard document.elements.count < limits.elements, recordedBytes < limits.totalBytes else { return }
        switch name {
        case "meta", "link", "base":
            record(name, attributes)
        case "title" where foreignDepth == 0:
            record(name, attributes, capture: .raw, limit: limits.titleBytes)
        case "script" where ElementCollector.isJSONLD(attributes.value(of: "type")):
            record(name, attributes, capture: .raw, limit: limits.jsonLDBytes)
        default:
            guard attributes.contains("itemprop") else { return }
            // Void elements have no text; their value is in an attribute.
            let isVoid = ElementCollector.voidElements.contains(name)
            record(name, attributes, capture: isVoid ? nil : .trimmed, limit: limits.itempropBytes)
        }
    }

    func end(_ name: String) {
        while let last = captures.last, last.depth >= depth {
            finish(captures.removeLast())
        }
        switch name {
        case "head":
            document.headComplete = true
        case "svg", "math":
            foreignDepth = max(0, foreignDepth - 1)
        default:
            break
        }
        depth = max(0, depth - 1)
    }

    /// Appends text to every element being captured, each up to its cap.
    func text(_ bytes: UnsafeRawBufferPointer) {
        guard !captures.isEmpty else { return }
        for position in captures.indices {
            let room = captures[position].limit - captures[position].bytes.count
            guard room > 0 else { continue }
            var start = 0
            if captures[position].kind == .trimmed, captures[position].bytes.isEmpty {
                // Leading whitespace would only eat the small budget.
                while start < bytes.count, ByteCursor.isSpace(bytes[start]) { start += 1 }
            }
            let end = min(bytes.count, start + room)
            captures[position].bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        }
    }

    private func record(_ name: String, _ attributes: AttributeList, capture kind: Capture.Kind? = nil, limit: Int = 0) {
        let values = attributes.dictionary(maxValueBytes: limits.attributeValueBytes)
        recordedBytes += values.reduce(name.utf8.count) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        document.elements.append(HTMLElement(name: name, attributes: values, inBody: document.headComplete))
        guard let kind, captures.count < limits.openCaptures else { return }
        captures.append(Capture(index: document.elements.count - 1, depth: depth, kind: kind, limit: limit))
    }

    private func finish(_ capture: Capture) {
        let text = ElementCollector.text(of: capture)
        recordedBytes += text.utf8.count
        document.elements[capture.index].text = text
    }
}
