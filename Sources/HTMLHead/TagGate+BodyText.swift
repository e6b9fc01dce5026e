extension TagGate {
    /// Drops body text that no element is capturing, before libxml2 has to
    /// decode it character by character: on a long page most of the 64 KiB
    /// of body read after the head is paragraph text that no rule reads
    /// once the collector's few paragraphs are kept.
    ///
    /// The collector says, before each chunk, whether dropping is safe
    /// (`PushParser` sets `drops`): the body has started, no element is
    /// capturing text, and libxml2 is inside an element, not directly in
    /// `<html>` (where text would imply a `<body>` and a `<p>`). Within the
    /// chunk the gate runs ahead of libxml2, so it stops dropping, until the
    /// next check, at any start tag that might open a capture: one with an
    /// attribute (a marker, `itemprop`, a JSON-LD type, a link, `datetime`)
    /// or a bare `<title>`, `<p>`, `<h1>`, `<div>` or `<time>` (the last four
    /// while the collector still keeps such elements: a `<div>` may be a
    /// text block, a `<time>` a date written as text),
    /// and at an end tag of `body`, `html` or `head`; and at a first text
    /// that starts with a label (`TagGate+Labels`).
    /// It is conservative: text kept that no one captures costs only time.
    struct BodyText {
        /// Text runs are dropped (until a tag below says otherwise).
        var drops = false
        /// Whether a bare `<p>` or `<h1>` may still be recorded with its text.
        var paragraphs = true
        var headings = true
        /// Whether a bare `<div>` may still be read as a text block.
        var divisions = true
        /// Whether a bare `<time>` may still be recorded with its text.
        var times = true
        /// The collector's run labels, while it may still record a label
        /// run (`TagGate+Labels`); none otherwise.
        var labels = LabelWords()
        /// The gate's own, carried from chunk to chunk: a start tag ended
        /// and no text other than white space has followed it yet.
        var awaitsFirstText = false
        /// The gate kept a first text that starts like a label; until
        /// libxml2 has handed it to the collector (whose element then waits
        /// for it), the next chunk keeps text too.
        var keptLabel = false

        private static let structural: [TagName] = [TagName("body"), TagName("html"), TagName("head")]
        private static let title = TagName("title")
        private static let paragraph = TagName("p")
        private static let heading = TagName("h1")
        private static let division = TagName("div")
        private static let time = TagName("time")

        /// A tag's `>`: stops dropping if the tag might change what is captured.
        mutating func tagEnded(_ name: TagName, isEndTag: Bool, hasAttributes: Bool) {
            awaitsFirstText = !isEndTag && !labels.isEmpty
            guard drops else { return }
            if isEndTag {
                if Self.structural.contains(name) { drops = false }
            } else if hasAttributes || name == Self.title || (paragraphs && name == Self.paragraph)
                || (headings && name == Self.heading) || (divisions && name == Self.division)
                || (times && name == Self.time)
            {
                drops = false
            }
        }
    }
}
