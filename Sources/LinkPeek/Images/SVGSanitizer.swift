import TextTrimming

/// Makes an SVG safe to hand to librsvg: it must not fetch anything.
///
/// librsvg is given the bytes from a buffer with no base URI, so it has
/// nothing to resolve a relative or `file:` reference against and loads no
/// URL at all; this is the second wall, which does not trust that. It works
/// on the raw bytes, before any parser sees them:
/// - a doctype that declares external entities (`SYSTEM`/`PUBLIC` inside
///   `<!ENTITY`), parameter entities, or entities that refer to other
///   entities (the "billion laughs") is refused, as is a document with a
///   backslash inside a `<style>` element or `style` attribute (CSS escapes
///   could spell `url(` or `@import` in a way the scan below would miss);
/// - every `href` (`xlink:href`, `xml:base` …) whose value is not a
///   fragment (`#id`) or a `data:image/` raster URL is replaced by `#`;
/// - every CSS `url(…)` that is not a fragment or such a data URL becomes
///   `url(#)`, and every `@import` becomes an unknown at-rule that CSS ignores.
public enum SVGSanitizer {
    public enum Refusal: Error, Equatable {
        case externalEntity, parameterEntity, nestedEntity, tooManyEntities, cssEscape
    }

    public static func sanitize(_ input: [UInt8]) -> Result<[UInt8], Refusal> {
        if let refusal = checkDoctype(input) ?? checkCSSEscapes(input) { return .failure(refusal) }
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if let end = reference(in: input, at: index, output: &output) {
                index = end
            } else {
                output.append(input[index])
                index += 1
            }
        }
        return .success(output)
    }

    // MARK: References

    /// At an `href=`, `url(` or `@import` starting at `index`: appends its
    /// neutralised form and returns where the input continues; nil otherwise.
    private static func reference(in bytes: [UInt8], at index: Int, output: inout [UInt8]) -> Int? {
        if matches(bytes, "@import", at: index) {
            output.append(contentsOf: Array("@x-ignored".utf8))
            return index + 7
        }
        if matches(bytes, "url(", at: index) {
            var start = index + 4
            while start < bytes.count, isSpace(bytes[start]) || bytes[start] == quote || bytes[start] == apostrophe { start += 1 }
            guard !isAllowed(bytes, at: start) else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ")"), bytes[end] != UInt8(ascii: "<") { end += 1 }
            output.append(contentsOf: Array("url(#".utf8))
            return end
        }
        if (matches(bytes, "href", at: index) || matches(bytes, "base", at: index)), index > 0,
           isNameBoundary(bytes[index - 1])
        {
            var cursor = index + 4
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { return nil }
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == quote || bytes[cursor] == apostrophe else { return nil }
            let delimiter = bytes[cursor]
            var valueStart = cursor + 1
            while valueStart < bytes.count, isSpace(bytes[valueStart]) { valueStart += 1 }
            var end = valueStart
            while end < bytes.count, bytes[end] != delimiter { end += 1 }
            output.append(contentsOf: bytes[index...cursor])
            if isAllowed(bytes, at: valueStart) {
                output.append(contentsOf: bytes[valueStart..<end])
            } else {
                output.append(UInt8(ascii: "#"))
            }
            return end
        }
        return nil
    }

    /// A fragment or a raster `data:image/` URL: nothing to fetch.
    private static func isAllowed(_ bytes: [UInt8], at index: Int) -> Bool {
        guard index < bytes.count else { return true }
        if bytes[index] == UInt8(ascii: "#") { return true }
        guard matches(bytes, "data:image/", at: index, ignoringCase: true) else { return false }
        // An SVG inside a data URL would be parsed again: refuse it like a URL.
        return !matches(bytes, "data:image/svg", at: index, ignoringCase: true)
    }

    /// Before an attribute name or its prefix: whitespace or `:` (`xlink:href`).
    private static func isNameBoundary(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ":")
    }

    // MARK: Bytes

    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")

    static func isSpace(_ byte: UInt8) -> Bool {
        WhiteSpaceByte.isHTMLSpace(byte)
    }

    /// Whether `literal` is at `index`; ASCII case is ignored unless the
    /// literal is an XML keyword (`<!ENTITY`, `SYSTEM`), which is case-sensitive.
    static func matches(_ bytes: [UInt8], _ literal: String, at index: Int, ignoringCase: Bool = true) -> Bool {
        let pattern = Array(literal.utf8)
        guard index >= 0, index + pattern.count <= bytes.count else { return false }
        for (offset, expected) in pattern.enumerated() {
            let actual = bytes[index + offset]
            if ignoringCase ? ASCIIByte.lowercased(actual) != ASCIIByte.lowercased(expected) : actual != expected {
                return false
            }
        }
        return true
    }

    static func find(_ bytes: [UInt8], _ literal: String, from start: Int) -> Int? {
        var index = max(0, start)
        while index < bytes.count {
            if matches(bytes, literal, at: index) { return index }
            index += 1
        }
        return nil
    }

    static func contains(_ bytes: ArraySlice<UInt8>, _ literal: String) -> Bool {
        let array = Array(bytes)
        return find(array, literal, from: 0) != nil
    }
}
