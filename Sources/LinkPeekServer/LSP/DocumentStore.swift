/// The documents a client has open, by URI, bounded:
///
/// - a document larger than `maxDocumentBytes` is tracked without its text
///   (so without links: hovers there answer `null`) until a full-text change
///   brings it back under the limit; a log line says so;
/// - at most `maxDocuments` are open at once; opening one more forgets the
///   oldest opened, with a log line.
///
/// A plain value owned by the `Server` actor.
struct DocumentStore {
    static let maxDocumentBytes = 8 * 1024 * 1024
    static let maxDocuments = 1000

    enum Entry {
        case text(TextDocument)
        /// Too large: kept as a name only.
        case tooLarge(bytes: Int)
    }

    private(set) var entries: [String: Entry] = [:]
    /// URIs in opening order, to forget the oldest past `maxDocuments`.
    private var order: [String] = []

    subscript(uri: String) -> TextDocument? {
        if case .text(let document)? = entries[uri] { return document }
        return nil
    }

    /// Opens (or reopens) `uri`; returns log lines for what was bounded.
    mutating func open(uri: String, text: String) -> [String] {
        var notes: [String] = []
        if entries[uri] == nil {
            order.append(uri)
            if order.count > Self.maxDocuments {
                let oldest = order.removeFirst()
                entries[oldest] = nil
                notes.append("more than \(Self.maxDocuments) open documents: forgot \(oldest)")
            }
        }
        entries[uri] = Self.entry(text: text, uri: uri, notes: &notes)
        return notes
    }

    mutating func close(uri: String) {
        guard entries.removeValue(forKey: uri) != nil else { return }
        order.removeAll { $0 == uri }
    }

    /// Applies one change; returns log lines. A ranged change to a document
    /// kept without its text cannot be applied and is dropped.
    mutating func change(uri: String, range: (start: (Int, Int), end: (Int, Int))?, text: String, encoding: PositionEncoding) -> [String] {
        guard entries[uri] != nil else { return ["didChange for a document that is not open: \(uri)"] }
        var notes: [String] = []
        guard let range else {
            entries[uri] = Self.entry(text: text, uri: uri, notes: &notes)
            return notes
        }
        // Moved out of the table, not copied: the only reference to the
        // lines is then `document`'s, so the edit mutates them in place
        // (a second reference would make it copy all the lines per keystroke).
        guard case .text? = entries[uri], case .text(var document)? = entries.removeValue(forKey: uri) else {
            return notes  // Kept without its text: a ranged change cannot apply.
        }
        let start = document.location(line: range.start.0, column: range.start.1, encoding: encoding)
        let end = document.location(line: range.end.0, column: range.end.1, encoding: encoding)
        document.replace(from: start, to: end, with: text)
        if document.byteCount > Self.maxDocumentBytes {
            notes.append("\(uri) grew to \(document.byteCount) bytes, over \(Self.maxDocumentBytes): links no longer tracked")
            entries[uri] = .tooLarge(bytes: document.byteCount)
        } else {
            entries[uri] = .text(document)
        }
        return notes
    }

    private static func entry(text: String, uri: String, notes: inout [String]) -> Entry {
        let size = text.utf8.count
        guard size <= maxDocumentBytes else {
            notes.append("\(uri) has \(size) bytes, over \(maxDocumentBytes): tracked without scanning for links")
            return .tooLarge(bytes: size)
        }
        return .text(TextDocument(text: text))
    }
}
