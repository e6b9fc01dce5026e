/// The first bytes of a tag's name, lowercased, packed into a word: enough
/// to tell `script` and `style` from every other name without an allocation
/// per tag.
struct TagName: Equatable {
    private var word: UInt64 = 0
    private var length = 0

    static let script = TagName("script")
    static let style = TagName("style")

    init() {}

    init(first: UInt8) {
        append(first)
    }

    init(_ name: StaticString) {
        for offset in 0..<name.utf8CodeUnitCount { append(name.utf8Start[offset]) }
    }

    /// Adds a byte; past eight only the length grows (no name compared here is that long).
    mutating func append(_ byte: UInt8) {
        if length < 8 { word |= UInt64(byte) << UInt64(8 * length) }
        length = min(length + 1, 9)
    }
}
