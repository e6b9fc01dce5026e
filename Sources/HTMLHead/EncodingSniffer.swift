import TextTrimming

/// WHATWG encoding sniffing, as pure functions over raw bytes: byte order
/// mark, then the HTTP charset, then a `<meta>` prescan of the first 1,024
/// bytes (and, failing that, an XHTML page's `<?xml ... encoding=...?>`, as
/// the HTML standard now also does), then UTF-8 if the bytes are valid
/// UTF-8, else windows-1252.
public enum EncodingSniffer {
    /// How many bytes the `<meta>` prescan looks at.
    public static let prescanLength = 1024

    /// Where a decision came from.
    public enum Source: Sendable, Equatable {
        case byteOrderMark, httpHeader, metaTag, xmlDeclaration, validUTF8, fallback
    }

    /// The outcome of sniffing.
    public struct Result: Sendable, Equatable {
        public var encoding: WHATWGEncoding
        public var source: Source
        /// Bytes of byte order mark to skip before decoding.
        public var bomLength: Int
    }

    /// Decides the encoding of a document from its first bytes (ideally at
    /// least `prescanLength` of them) and the `charset` parameter of its HTTP
    /// `Content-Type`, if any.
    public static func sniff(prefix: some Collection<UInt8>, httpCharset: String?) -> Result {
        let bytes = Array(prefix.prefix(prescanLength))
        if let (encoding, length) = byteOrderMark(bytes) {
            return Result(encoding: encoding, source: .byteOrderMark, bomLength: length)
        }
        if let label = httpCharset, let encoding = WHATWGEncoding(label: label) {
            return Result(encoding: encoding, source: .httpHeader, bomLength: 0)
        }
        if let encoding = MetaPrescan.encoding(in: bytes) {
            return Result(encoding: encoding, source: .metaTag, bomLength: 0)
        }
        if let encoding = MetaPrescan.xmlDeclarationEncoding(in: bytes) {
            return Result(encoding: encoding, source: .xmlDeclaration, bomLength: 0)
        }
        if isValidUTF8Prefix(bytes) {
            return Result(encoding: .utf8, source: .validUTF8, bomLength: 0)
        }
        return Result(encoding: .windows1252, source: .fallback, bomLength: 0)
    }

    /// The encoding a byte order mark at the start of `bytes` names, and the
    /// mark's length.
    public static func byteOrderMark(_ bytes: some Collection<UInt8>) -> (WHATWGEncoding, Int)? {
        let head = Array(bytes.prefix(3))
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { return (.utf8, 3) }
        if head.count >= 2, head[0] == 0xFE, head[1] == 0xFF { return (.utf16BE, 2) }
        if head.count >= 2, head[0] == 0xFF, head[1] == 0xFE { return (.utf16LE, 2) }
        return nil
    }

    /// True when more bytes could still turn `bytes` into a byte order mark
    /// (they are a proper prefix of one), so a decision must wait.
    static func couldBecomeByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        let head = Array(bytes.prefix(3))
        let marks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFE, 0xFF], [0xFF, 0xFE]]
        return marks.contains { $0.count > head.count && Array($0.prefix(head.count)) == head }
    }

    /// The `charset` parameter of a `Content-Type` header value, unquoted,
    /// or nil when there is none.
    public static func charset(fromContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                  parts[0].trimmedASCIIWhitespace.lowercased() == "charset" else { continue }
            var value = parts[1].trimmedASCIIWhitespace
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// True when `bytes` is valid UTF-8, allowing a multi-byte sequence cut
    /// off at the very end (the prefix of a longer document ends anywhere).
    static func isValidUTF8Prefix(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var index = 0
            while index < buffer.count {
                let step = UTF8Scan.classify(buffer, at: index)
                if step == 0 { return true }
                if step < 0 { return false }
                index += step
            }
            return true
        }
    }
}
