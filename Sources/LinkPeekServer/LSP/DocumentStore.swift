/// The documents a client has open, by URI, bounded so that no client can
/// make the daemon hold more than a few tens of megabytes of text:
///
/// - a document over `maxDocumentBytes`, or with more than `maxLines` lines
///   (each line costs memory of its own), is tracked without its text (so
///   without links: hovers there answer `null`) until a full-text change
///   brings it back under the limits; a log line says so;
/// - the texts kept add up to at most `maxTotalBytes`, and at most
///   `maxDocuments` are open: past either, the oldest opened documents are
///   forgotten, with a log line each.
///
/// A plain value owned by the `Server` actor.
struct DocumentStore {
    struct Limits {
        var maxDocumentBytes = 8 * 1024 * 1024
        var maxLines = 400_000
        var maxTotalBytes = 64 * 1024 * 1024
        var maxDocuments = 1000
    }

    /// The daemon's limits (protocol/README.md §4a); tests use smaller ones.
    let limits: Limits

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    enum Entry {
        case text(TextDocument)
        /// Over a limit: kept as a name only.
        case tooLarge

        var bytes: Int {
            if case .text(let document) = self { return document.byteCount }
            return 0
        }
    }

    private(set) var entries: [String: Entry] = [:]
    /// URIs in opening order, to forget the oldest past the bounds.
    private var order: [String] = []
    /// Bytes of text kept, over all documents.
    private(set) var totalBytes = 0

    subscript(uri: String) -> TextDocument? {
        if case .text(let document)? = entries[uri] { return document }
        return nil
    }

    /// Opens (or reopens) `uri`; returns log lines for what was bounded.
    mutating func open(uri: String, text: String) -> [String] {
        var notes: [String] = []
        if entries[uri] == nil { order.append(uri) }
        set(uri, entry(text: text, uri: uri, notes: &notes))
        forgetOldest(keeping: uri, notes: &notes)
        return notes
    }

    mutating func close(uri: String) {
        guard let entry = entries.removeValue(forKey: uri) else { return }
        totalBytes -= entry.bytes
        order.removeAll { $0 == uri }
    }

    /// Applies one change; returns log lines. A ranged change to a document
    /// kept without its text cannot be applied and is dropped.
    mutating func change(uri: String, range: (start: (Int, Int), end: (Int, Int))?, text: String, encoding: PositionEncoding) -> [String] {
        guard entries[uri] != nil else { return ["didChange for a document that is not open: \(uri)"] }
        var notes: [String] = []
        guard let range else {
            set(uri, entry(text: text, uri: uri, notes: &notes))
            forgetOldest(keeping: uri, notes: &notes)
            return notes
        }
        // Moved out of the table, not copied: the only reference to the
        // lines is then `document`'s, so the edit mutates them in place
        // (a second reference would make it copy all the lines per keystroke).
        guard case .text? = entries[uri], case .text(var document)? = entries.removeValue(forKey: uri) else {
            return notes  // Kept without its text: a ranged change cannot apply.
        }
        totalBytes -= document.byteCount
        let start = document.location(line: range.start.0, column: range.start.1, encoding: encoding)
        let end = document.location(line: range.end.0, column: range.end.1, encoding: encoding)
        document.replace(from: start, to: end, with: text)
        if let limit = limitBroken(bytes: document.byteCount, lines: document.lines.count) {
            notes.append("\(uri) grew past \(limit): links no longer tracked")
            set(uri, .tooLarge)
        } else {
            set(uri, .text(document))
            forgetOldest(keeping: uri, notes: &notes)
        }
        return notes
    }

    private mutating func set(_ uri: String, _ entry: Entry) {
        totalBytes += entry.bytes - (entries[uri]?.bytes ?? 0)
        entries[uri] = entry
    }

    /// Forgets the oldest opened documents (never `keeping`) while the
    /// count or the bytes kept are over their bounds.
    private mutating func forgetOldest(keeping: String, notes: inout [String]) {
        var index = 0
        while order.count > limits.maxDocuments || totalBytes > limits.maxTotalBytes, index < order.count {
            // Over the bytes only: forgetting a document without text frees nothing.
            let freesNothing = order.count <= limits.maxDocuments && (entries[order[index]]?.bytes ?? 0) == 0
            guard order[index] != keeping, !freesNothing else {
                index += 1
                continue
            }
            let oldest = order.remove(at: index)
            totalBytes -= entries.removeValue(forKey: oldest)?.bytes ?? 0
            notes.append("over \(limits.maxDocuments) documents or \(limits.maxTotalBytes) bytes of text: forgot \(oldest)")
        }
    }

    private func entry(text: String, uri: String, notes: inout [String]) -> Entry {
        let size = text.utf8.count
        // Line breaks counted before splitting: a text of 8 MiB of newlines must not become 8 M lines.
        let breaks = size > limits.maxLines ? text.utf8.count { $0 == 0x0A || $0 == 0x0D } : 0
        if let limit = limitBroken(bytes: size, lines: breaks) {
            notes.append("\(uri) is over \(limit): tracked without scanning for links")
            return .tooLarge
        }
        return .text(TextDocument(text: text))
    }

    /// The limit a document of this size breaks, in words, or nil.
    private func limitBroken(bytes: Int, lines: Int) -> String? {
        if bytes > limits.maxDocumentBytes { return "\(limits.maxDocumentBytes) bytes" }
        if lines > limits.maxLines { return "\(limits.maxLines) lines" }
        return nil
    }
}
