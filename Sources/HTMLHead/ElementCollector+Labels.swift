import TextTrimming

/// Label runs: an element whose first text starts with one of the caller's
/// labels (`BodyRecords.labels`: "By", "Published", "公開" …) is recorded
/// with its text, whatever its tag and class: templates with hashed class
/// names write "By <span>Ann Lee</span>" or "Published: March 9, 2021" in
/// elements that no marker names. The element is known to be one only at
/// its first text, so it is recorded then (without attributes, which are
/// gone by then), and its capture starts with that text.
///
/// A label is often alone in its element, the value in the next one:
/// `<span>By </span><span>Ann Lee</span>`, `<span>Published:</span>
/// <span>March 9, 2021</span>`. Such a run, at its element's end, is carried
/// on in the parent: it takes the text that follows, up to the end of the
/// next sibling that gives it text (or the parent's end), at most
/// `FallbackLimits.labelCarryBytes` more. While it is open it is a capture
/// like any other, so the tag gate keeps the text it needs (`drops` is
/// false while a capture is open), across any chunking.
extension ElementCollector {
    /// The innermost element, waiting for its first text.
    struct LabelCandidate {
        var depth: Int
        var name: ElementName
        /// The name as written, for names `ElementName` does not know.
        var spelling: String?
    }

    /// After an element started: it may be a label run when it was not
    /// recorded (or only as a text block), in the body, outside code.
    func considerLabel(_ tag: ElementTag, recorded: Bool) {
        let name = tag.name
        guard document.headComplete, !limits.fallbacks.records.labelBytes.isEmpty, foreignDepth == 0, codeDepth == 0,
              !name.isVoid else { return }
        switch name {
        case .a, .time, .title, .script, .style, .template, .noscript, .svg, .math, .html, .head, .body, .video, .audio:
            return
        default:
            break
        }
        if recorded {
            guard let last = captures.last, last.kind == .textBlock, last.depth == depth else { return }
        }
        guard !bodyContext.isInside(.hidden) else { return }
        let apart = bodyContext.isInside(limits.fallbacks.records.apart)
        guard (apart ? apartCounts : fallbackCounts)[.label] < limits.fallbacks.labels else { return }
        labelCandidate = LabelCandidate(depth: depth, name: name, spelling: name == .other ? tag.string : nil)
    }

    /// The candidate's first text: records the element when it starts with a label.
    func labelRun(_ candidate: LabelCandidate, _ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while start < bytes.count, ByteCursor.isSpace(bytes[start]) { start += 1 }
        // White space only: the first text is still to come.
        guard start < bytes.count else { return }
        labelCandidate = nil
        guard ElementCollector.startsWithLabel(bytes, from: start, labels: limits.fallbacks.records.labelBytes),
              elementCount < limits.elements, recordedBytes < limits.totalBytes else { return }
        let apart = bodyContext.isInside(limits.fallbacks.records.apart)
        if let last = captures.indices.last, captures[last].kind == .textBlock, captures[last].depth == depth {
            // A `<div>` read as a text block: a label run instead.
            captures[last].kind = .line
            if apart { apartCounts[.label] += 1 } else { fallbackCounts[.label] += 1 }
            return
        }
        guard captures.count < limits.openCaptures else { return }
        if apart { apartCounts[.label] += 1 } else { fallbackCounts[.label] += 1 }
        let name = candidate.spelling ?? String(describing: candidate.name)
        elementCount += 1
        recordedBytes += name.utf8.count
        document.elements.append(HTMLElement(name: name, attributeList: [], inBody: true, isFallback: true,
                                             context: bodyContext.context(depth: depth)))
        captures.append(Capture(index: document.elements.count - 1, depth: depth, kind: .line,
                                limit: limits.fallbacks.textBytes, visibleOnly: true))
    }

    /// True when `bytes[start...]` starts with one of `labels` (lowercase;
    /// ASCII letters match either case) that ends there or before a byte
    /// that is no ASCII letter or digit ("By " and "By:", not "Bytes").
    static func startsWithLabel(_ bytes: UnsafeRawBufferPointer, from start: Int, labels: [[UInt8]]) -> Bool {
        labels.contains { label in
            guard let last = label.last, label.count <= bytes.count - start else { return false }
            for offset in label.indices where ByteCursor.lower(bytes[start + offset]) != label[offset] { return false }
            let end = start + label.count
            guard last < 0x80, end < bytes.count else { return true }
            let next = ByteCursor.lower(bytes[end])
            return !((next >= UInt8(ascii: "a") && next <= UInt8(ascii: "z")) || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")))
        }
    }

    /// At the end of a label run's own element (`capture`, just taken off
    /// the stack): when its text is the label alone, carries it on in the
    /// parent and returns true (the caller puts it back).
    func carriesLabel(_ capture: inout Capture) -> Bool {
        guard capture.kind == .line, capture.carriedFrom == nil, capture.depth == depth, depth > 1,
              ElementCollector.isLabelAlone(capture.bytes, labels: limits.fallbacks.records.labelBytes) else { return false }
        if capture.bytes.count < capture.limit, capture.bytes.last.map({ !ByteCursor.isSpace($0) }) ?? false {
            capture.bytes.append(ElementCollector.space)
        }
        capture.depth = depth - 1
        capture.carriedFrom = capture.bytes.count
        capture.limit = min(capture.limit, capture.bytes.count + limits.fallbacks.labelCarryBytes)
        return true
    }

    /// After an element ended (at `depth`, not yet left): a carried label
    /// run on top ends with the sibling that gave it text, or once full.
    func endCarriedLabel() {
        guard let last = captures.last, let from = last.carriedFrom else { return }
        let full = last.bytes.count >= last.limit
        let gotText = depth == last.depth + 1 && last.bytes[from...].contains { !ByteCursor.isSpace($0) }
        if full || gotText { finish(captures.removeLast()) }
    }

    /// True when `bytes` (a label run's text) is one of `labels` and
    /// nothing else but white space and punctuation ("By", "Published:",
    /// "公開：").
    static func isLabelAlone(_ bytes: [UInt8], labels: [[UInt8]]) -> Bool {
        var start = 0
        while start < bytes.count, ByteCursor.isSpace(bytes[start]) { start += 1 }
        return labels.contains { label in
            guard label.count <= bytes.count - start,
                  label.indices.allSatisfy({ ByteCursor.lower(bytes[start + $0]) == label[$0] }) else { return false }
            var rest = bytes[(start + label.count)...]
            // A full-width colon ("：", U+FF1A) after a CJK label.
            if rest.starts(with: fullWidthColon) { rest = rest.dropFirst(fullWidthColon.count) }
            return rest.allSatisfy { byte in
                byte < 0x80 && !ASCIIByte.isLetter(byte) && (byte &- UInt8(ascii: "0")) >= 10
            }
        }
    }

    private static let fullWidthColon: [UInt8] = [0xEF, 0xBC, 0x9A]
}
