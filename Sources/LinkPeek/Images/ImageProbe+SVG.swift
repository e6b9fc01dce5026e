/// SVG, which is text: the root `<svg>` tag's `width`, `height` and `viewBox`.
extension ImageProbe {
    /// How far into the file the root element is looked for.
    static let svgSearchLength = 16 * 1024

    static func svg(_ bytes: [UInt8]) -> ImageInfo? {
        var text = Array(bytes.prefix(svgSearchLength))
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        guard let attributes = rootSVGAttributes(text) else { return nil }
        let width = attributes["width"].flatMap(cssPixels)
        let height = attributes["height"].flatMap(cssPixels)
        let viewBox = attributes["viewbox"].flatMap(viewBoxSize)
        switch (width, height, viewBox) {
        case let (width?, height?, _):
            return info("image/svg+xml", pixels(width), pixels(height))
        case let (width?, nil, box?):
            return info("image/svg+xml", pixels(width), pixels(width * box.height / box.width))
        case let (nil, height?, box?):
            return info("image/svg+xml", pixels(height * box.width / box.height), pixels(height))
        case let (nil, nil, box?):
            return info("image/svg+xml", pixels(box.width), pixels(box.height))
        default:
            return ImageInfo(mimeType: "image/svg+xml")
        }
    }

    /// A length as whole pixels, nil unless it is a sane size. Lengths are
    /// below 1e7 each, but a ratio of two (`100 * 1e6 / 1e-300`) can be
    /// anything, and `Int(_:)` of an infinite or huge double traps.
    static func pixels(_ length: Double) -> Int? {
        let rounded = length.rounded()
        guard rounded.isFinite, rounded >= 1, rounded < maximumSVGPixels else { return nil }
        return Int(exactly: rounded)
    }

    /// The largest side an SVG's declared size may give (the lengths' own cap).
    static let maximumSVGPixels = 1e7

    /// The attributes (names lowercased) of the root element when it is
    /// `<svg>`, skipping whitespace, the XML declaration, processing
    /// instructions, comments and a doctype before it.
    static func rootSVGAttributes(_ text: [UInt8]) -> [String: String]? {
        var scanner = MarkupScanner(bytes: text)
        scanner.skipProlog()
        guard let name = scanner.tagName(), name == "svg" || name.hasSuffix(":svg") else { return nil }
        return scanner.attributes()
    }

    /// A CSS length in pixels; nil for relative units (%, em) and junk.
    static func cssPixels(_ value: String) -> Double? {
        let trimmed = String(value.filter { !$0.isWhitespace }).lowercased()
        let units: [(String, Double)] = [("px", 1), ("pt", 4.0 / 3), ("pc", 16), ("mm", 96 / 25.4), ("cm", 96 / 2.54), ("in", 96)]
        for (unit, scale) in units where trimmed.hasSuffix(unit) {
            return Double(trimmed.dropLast(unit.count)).map { $0 * scale }.flatMap(positive)
        }
        return Double(trimmed).flatMap(positive)
    }

    static func viewBoxSize(_ value: String) -> (width: Double, height: Double)? {
        let numbers = value.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }.compactMap { Double($0) }
        guard numbers.count == 4, let width = positive(numbers[2]), let height = positive(numbers[3]) else { return nil }
        return (width, height)
    }

    private static func positive(_ value: Double) -> Double? {
        value.isFinite && value > 0 && value < maximumSVGPixels ? value : nil
    }
}
