import FoundationEssentials
import TextTrimming

/// Parsing of declared numbers, shared by the media rules.
extension MetadataRules {
    /// Parses a declared pixel dimension ("600", "600px", " 600 ") leniently.
    static func pixels(_ raw: String?) -> Int? {
        guard let raw else { return nil }
        let digits = raw.trimmedSpaces.prefix(while: \.isASCIIDigit)
        guard let value = Int(digits), value > 0 else { return nil }
        return value
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
