/// The documented range of one number a client may send: a param, an
/// `initializationOptions` key or a CLI flag. Every such number is checked
/// against its range here, before anything converts it, so that no value a
/// client can write — `1e20`, `2^63`, `-0`, `1.5` where a count is meant —
/// reaches an `Int(…)`, a `Duration` or an allocation size. The daemon
/// answers a failed check with -32602 and the sentence `check` returns; the
/// CLI exits with it. `protocol/README.md` lists the ranges (`ParamRanges`).
public struct NumberRange: Sendable, Equatable {
    public let minimum: Double
    public let maximum: Double
    /// Whole numbers only (counts, sizes, offsets, pixels).
    public let integral: Bool
    /// Said after the range in messages, e.g. "seconds".
    public let unit: String?

    public init(_ range: ClosedRange<Double>, integral: Bool = false, unit: String? = nil) {
        minimum = range.lowerBound
        maximum = range.upperBound
        self.integral = integral
        self.unit = unit
    }

    /// nil when `value` is in range, else a sentence naming `field` and the
    /// range, e.g. "timeout must be a number from 0.001 to 3600 (seconds)".
    /// NaN and infinities are out of every range.
    public func check(_ value: Double, field: String) -> String? {
        let inRange = value.isFinite && value >= minimum && value <= maximum
        if inRange && (!integral || value.rounded(.towardZero) == value) { return nil }
        let kind = integral ? "an integer" : "a number"
        let unitText = unit.map { " (\($0))" } ?? ""
        return "\(field) must be \(kind) from \(Self.format(minimum)) to \(Self.format(maximum))\(unitText)"
    }

    /// `value` as an `Int` when it passes `check`, else nil. Safe: a value in
    /// range is finite and within the range's bounds, which are all far
    /// inside `Int`'s.
    public func integer(_ value: Double) -> Int? {
        guard check(value, field: "") == nil else { return nil }
        return Int(exactly: value.rounded(.towardZero))
    }

    /// `check` over an optional: an absent value is always fine.
    public func check(_ value: Double?, field: String) -> String? {
        value.flatMap { check($0, field: field) }
    }

    private static func format(_ value: Double) -> String {
        if let whole = Int(exactly: value) { return String(whole) }
        return String(value)
    }
}

/// Every client number's range, in one place. The daemon's params, its
/// `initializationOptions` and the CLI's flags all check these.
public enum ParamRanges {
    /// A fetch's timeout, per request or for the session.
    public static let timeout = NumberRange(0.001...3600, unit: "seconds")
    /// `initialize`'s `processId` (a pid; Linux's are below 2^22, other systems' fit 32 bits).
    public static let processId = NumberRange(0...2_147_483_647, integral: true)
    /// Transfers running at once in all.
    public static let maxConcurrency = NumberRange(1...1024, integral: true)
    /// The cache's size limit (`--cache-size`, `initializationOptions.cacheSize`).
    public static let cacheSize = NumberRange(1...1_048_576, integral: true, unit: "MiB")
    /// `saved`: how many links at most, and how many to skip.
    public static let savedLimit = NumberRange(0...100_000, integral: true)
    public static let savedOffset = NumberRange(0...1_000_000_000, integral: true)
    /// `--clock-offset`: seconds the cache's clock runs ahead (a test seam).
    public static let clockOffset = NumberRange(0...315_360_000, unit: "seconds")

    /// Bytes a URL may have (a longer one is refused before any work).
    public static let maxURLBytes = 65_536
    /// Characters a header value (`acceptLanguage`) or a tag may have.
    public static let maxHeaderValueLength = 1024
    public static let maxTagLength = 256
    public static let maxTags = 64

    /// nil when `url` is short enough, else a sentence naming `field`.
    public static func checkURL(_ url: String, field: String) -> String? {
        url.utf8.count <= maxURLBytes ? nil : "\(field) must be at most \(maxURLBytes) bytes"
    }

    /// nil when `value` can be sent as one header value, else a sentence naming `field`.
    public static func checkHeaderValue(_ value: String?, field: String) -> String? {
        guard let value else { return nil }
        if value.count > maxHeaderValueLength { return "\(field) must be at most \(maxHeaderValueLength) characters" }
        let control = value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        return control ? "\(field) must not contain control characters" : nil
    }

    /// nil when `tags` are usable, else a sentence naming `field`.
    public static func checkTags(_ tags: [String]?, field: String) -> String? {
        guard let tags else { return nil }
        if tags.count > maxTags { return "\(field) must have at most \(maxTags) tags" }
        for tag in tags {
            if tag.isEmpty || tag.count > maxTagLength {
                return "\(field) entries must have 1 to \(maxTagLength) characters"
            }
            if tag.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return "\(field) entries must not contain control characters"
            }
        }
        return nil
    }
    /// Characters of a `save` title at most.
    public static let maxSavedTitleLength = 2048

    /// `save`'s `title`: 1 to `maxSavedTitleLength` characters, no control characters.
    public static func checkSavedTitle(_ title: String?, field: String) -> String? {
        guard let title else { return nil }
        if title.isEmpty || title.count > maxSavedTitleLength {
            return "\(field) must have 1 to \(maxSavedTitleLength) characters"
        }
        if title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(field) must not contain control characters"
        }
        return nil
    }

    /// A zero-based line or character offset (LSP's `uinteger`).
    public static let position = NumberRange(0...2_147_483_647, integral: true)
    /// A document version (LSP's `integer`); informational.
    public static let documentVersion = NumberRange(-2_147_483_648...2_147_483_647, integral: true)
    /// How long a hover waits for a fetch before answering with what is known.
    public static let hoverTimeout = NumberRange(0...60, unit: "seconds")
    /// Columns of a text card.
    public static let cardWidth = NumberRange(20...1000, integral: true)
    /// An image's target width or height (`getMedia`, `fetch`'s `thumbnail`, `linkpeek image`).
    public static let imageSide = NumberRange(1...2048, integral: true, unit: "pixels")
    /// Device pixel ratio: the box is multiplied by it, its longest side capped at 2048.
    public static let dpr = NumberRange(1...4)
    /// Encoder quality for JPEG, WebP and AVIF.
    public static let quality = NumberRange(1...100, integral: true)
}
