import TextTrimming

/// An encoding from the WHATWG Encoding Standard, found from one of its
/// labels the way browsers do it.
///
/// Only the canonical name is public; how the bytes are decoded (glibc
/// `iconv`, or a small table in Swift) is an internal detail chosen per
/// encoding in `decoder`.
public struct WHATWGEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The WHATWG name, for example "UTF-8", "Shift_JIS", "GBK", "windows-1252".
    public let name: String

    /// How the scanner turns bytes of this encoding into UTF-8.
    let decoder: Decoder

    /// The decoding strategies the scanner knows.
    enum Decoder: Sendable, Hashable {
        /// UTF-8 itself: validated and passed through.
        case utf8
        /// windows-1252, done in Swift because it is the most common fallback
        /// and glibc rejects the five bytes WHATWG maps to C1 controls.
        case windows1252
        /// x-user-defined: bytes 0x80...0xFF map to U+F780...U+F7FF.
        case userDefined
        /// The "replacement" encoding: the whole stream decodes to one U+FFFD.
        case replacement
        /// glibc `iconv`, trying the names in order (the first is the closest
        /// match to the WHATWG index). `unit` is the code unit size, so an
        /// invalid sequence is skipped without losing alignment.
        case iconv(names: [String], unit: Int)
    }

    init(name: String, decoder: Decoder) {
        self.name = name
        self.decoder = decoder
    }

    /// Looks a label up the WHATWG way: ASCII whitespace around it is
    /// ignored and case does not matter. Returns nil for unknown labels.
    public init?(label: String) {
        let key = WHATWGEncoding.normalize(label)
        guard let found = WHATWGEncoding.byLabel[key] else { return nil }
        self = found
    }

    public var description: String { name }

    public static func == (lhs: WHATWGEncoding, rhs: WHATWGEncoding) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    public static let utf8 = WHATWGEncoding(name: "UTF-8", decoder: .utf8)
    public static let windows1252 = WHATWGEncoding(name: "windows-1252", decoder: .windows1252)
    public static let utf16LE = WHATWGEncoding(name: "UTF-16LE", decoder: .iconv(names: ["UTF-16LE"], unit: 2))
    public static let utf16BE = WHATWGEncoding(name: "UTF-16BE", decoder: .iconv(names: ["UTF-16BE"], unit: 2))
    static let userDefined = WHATWGEncoding(name: "x-user-defined", decoder: .userDefined)

    /// Strips ASCII whitespace and lowercases ASCII letters, leaving other
    /// bytes alone, as the standard's "get an encoding" does.
    static func normalize(_ label: String) -> String {
        let lowered = label.trimmedASCIIWhitespace.utf8.map(ASCIIByte.lowercased)
        return String(decoding: lowered, as: UTF8.self)
    }
}
