/// Lead text written straight inside a `<div>`, its lines parted by `<br>`s
/// and no `<p>` around them: some templates write an article's opening so.
///
/// A body `<div>` outside the caller's `BodyRecords.apart` landmarks that
/// no other rule records is recorded as a text block (with no attributes:
/// only its text and place matter) and keeps its own text only: the text of
/// its inline children, each `<br>` as a line end, and not the text of its
/// child blocks. A wrapper — a `<div>` whose first child block comes before
/// any text of its own — is given up at once, so that the tag gate can go
/// back to dropping text; so is a block without a `<br>` or too short to be
/// prose (`FallbackLimits.textBlockCharacters`), at its end. A child block
/// the page hides (`hidden`, `aria-hidden`, `display: none`: a "listen to
/// this article" widget) is left out like any other, even before the
/// block's own text: it is no wrapper a reader sees. A block closes
/// at `FallbackLimits.textBytes`. A block records how many elements
/// recorded after it lie inside it (`HTMLElement.recordedInside`): a `<p>`
/// after its own lines, which come first. A few are kept (`textBlocks`); blocks given
/// up while an element recorded inside them is still capturing stay as
/// records without text, and after `textBlockMisses` of those no more are
/// tried.
extension ElementCollector {
    /// Whether a `<div>` may still be read as a text block.
    var readsTextBlocks: Bool {
        fallbackCounts[.textBlock] < limits.fallbacks.textBlocks
            && textBlockMisses < limits.fallbacks.textBlockMisses
    }

    /// Records the `<div>` just started as a text block, capturing its text.
    func recordTextBlock(_ tag: ElementTag) {
        guard captures.count < limits.openCaptures else { return }
        elementCount += 1
        recordedBytes += ElementCollector.divisionName.utf8.count
        document.elements.append(
            HTMLElement(name: ElementCollector.divisionName, attributeList: [], inBody: true, isFallback: true,
                        context: bodyContext.context(depth: depth)))
        captures.append(Capture(index: document.elements.count - 1, depth: depth, kind: .textBlock,
                                limit: limits.fallbacks.textBytes, visibleOnly: true))
    }

    private static let divisionName = "div"

    /// A child element `name` started inside the open captures: a `<br>`
    /// ends a text block's line; a child block's text is left out, or, before
    /// any text of the block's own, gives the block up (a wrapper).
    func textBlockChild(_ name: ElementName) {
        guard name == .br || name.isBlock else { return }
        for position in captures.indices.reversed() {
            guard captures[position].kind == .textBlock, captures[position].skippedBlockDepth == nil else { continue }
            if name == .br {
                guard !bodyContext.isInside(.hidden), captures[position].bytes.count < captures[position].limit else { continue }
                captures[position].bytes.append(ElementCollector.lineEnd)
            } else if captures[position].hasOwnText || bodyContext.isInside(.hidden) {
                captures[position].skippedBlockDepth = depth
                if captures[position].hasOwnText, captures[position].bytes.count < captures[position].limit,
                   captures[position].bytes.last != ElementCollector.space {
                    captures[position].bytes.append(ElementCollector.space)
                }
            } else {
                discardTextBlock(captures.remove(at: position))
            }
        }
    }

    /// Closes the text blocks that reached their byte limit.
    func closeFullTextBlocks() {
        for position in captures.indices.reversed()
        where captures[position].kind == .textBlock && captures[position].bytes.count >= captures[position].limit {
            let capture = captures.remove(at: position)
            if finishTextBlock(capture) { fullTextBlock = (capture.index, capture.depth) }
        }
    }

    /// An element ends while a text block closed at its limit waits for
    /// its `<div>`'s end: at that end, what was recorded since is inside it.
    func endFullTextBlock() {
        guard let block = fullTextBlock, depth <= block.depth else { return }
        fullTextBlock = nil
        guard block.index < document.elements.count else { return }
        document.elements[block.index].recordedInside = document.elements.count - 1 - block.index
    }

    /// Keeps a text block that has a `<br>` and is long enough (and says
    /// so); gives up the rest.
    @discardableResult
    func finishTextBlock(_ capture: Capture) -> Bool {
        guard capture.bytes.contains(ElementCollector.lineEnd) else {
            discardTextBlock(capture)
            return false
        }
        let text = ElementCollector.text(of: capture)
        guard text.count >= limits.fallbacks.textBlockCharacters else {
            discardTextBlock(capture)
            return false
        }
        fallbackCounts[.textBlock] += 1
        recordedBytes += text.utf8.count
        document.elements[capture.index].text = text
        document.elements[capture.index].recordedInside = document.elements.count - 1 - capture.index
        return true
    }

    /// Gives a text block up: its record goes unless an open capture holds
    /// an element recorded after it, else it stays without text (and counts
    /// as a miss).
    private func discardTextBlock(_ capture: Capture) {
        if !captures.contains(where: { $0.index > capture.index }) {
            if let block = fullTextBlock, block.index > capture.index { fullTextBlock = (block.index - 1, block.depth) }
            document.elements.remove(at: capture.index)
            elementCount -= 1
            recordedBytes -= ElementCollector.divisionName.utf8.count
        } else {
            textBlockMisses += 1
            document.elements[capture.index].text = nil
        }
    }

    static let lineEnd = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")

    /// Turns the line ends (and tabs, form feeds) in `bytes[from...]` into
    /// spaces: in a label run or a text block, only a `<br>` ends a line.
    static func joinLines(_ bytes: inout [UInt8], from: Int) {
        for index in from..<bytes.count where bytes[index] < space && isSpace(bytes[index]) {
            bytes[index] = space
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { ByteCursor.isSpace(byte) }
}
