import Testing
@testable import HTMLHead

/// Real pages in legacy encodings: the bytes are written out literally, as
/// a server would send them.
@Suite struct DecodingTests {
    private func page(charset: String, title: [UInt8]) -> [UInt8] {
        Array("<html><head><meta charset=\"\(charset)\"><title>".utf8) + title + Array("</title></head><body></body></html>".utf8)
    }

    static let cases: [(charset: String, bytes: [UInt8], expected: String, encoding: String)] = [
        ("shift_jis", [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x79, 0x81, 0x5B, 0x83, 0x57], "日本語のページ", "Shift_JIS"),
        ("gb2312", [0xD6, 0xD0, 0xCE, 0xC4, 0xCD, 0xF8, 0xD2, 0xB3], "中文网页", "GBK"),
        ("euc-kr", [0xC7, 0xD1, 0xB1, 0xB9, 0xBE, 0xEE, 0x20, 0xC6, 0xE4, 0xC0, 0xCC, 0xC1, 0xF6], "한국어 페이지", "EUC-KR"),
        ("windows-1251", [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2, 0x20, 0xEC, 0xE8, 0xF0], "Привет мир", "windows-1251"),
        ("iso-8859-1", [0x43, 0x61, 0x66, 0xE9, 0x20, 0x96, 0x20, 0x93, 0x71, 0x75, 0x6F, 0x74, 0x65, 0x64, 0x94], "Café – “quoted”", "windows-1252"),
        ("euc-jp", [0xC6, 0xFC, 0xCB, 0xDC, 0xB8, 0xEC], "日本語", "EUC-JP"),
        ("koi8-r", [0xF2, 0xCF, 0xD3, 0xD3, 0xC9, 0xD1], "Россия", "KOI8-R"),
        ("big5", [0xC1, 0x63, 0xC5, 0xE9, 0xA4, 0xA4, 0xA4, 0xE5], "繁體中文", "Big5"),
        ("iso-2022-jp", [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x38, 0x6C, 0x1B, 0x28, 0x42], "日本語", "ISO-2022-JP"),
    ]

    @Test(arguments: 0..<cases.count)
    func legacyEncodingFromMeta(_ index: Int) {
        let (charset, bytes, expected, encoding) = DecodingTests.cases[index]
        let whole = scan(page(charset: charset, title: bytes))
        #expect(whole.title == expected)
        #expect(whole.encoding == encoding)
        // Cut anywhere, even inside a multi-byte character: same result.
        #expect(scan(page(charset: charset, title: bytes), chunk: 1) == whole)
        #expect(scan(page(charset: charset, title: bytes), chunk: 3) == whole)
    }

    @Test func httpCharsetWithoutMeta() {
        let bytes = Array("<title>".utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</title>".utf8)
        #expect(scan(bytes, contentType: "text/html; charset=Shift_JIS").title == "日本")
        #expect(scan(bytes, contentType: "text/html; charset=Shift_JIS", chunk: 1).title == "日本")
    }

    @Test func utf16WithByteOrderMarks() {
        let text = "<html lang=de><title>Grüße 𝄞</title><meta name=a content=b>"
        let units = Array(text.utf16)
        let little: [UInt8] = [0xFF, 0xFE] + units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let big: [UInt8] = [0xFE, 0xFF] + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for bytes in [little, big] {
            let document = scan(bytes)
            #expect(document.title == "Grüße 𝄞")
            #expect(document.htmlLang == "de")
            #expect(document.meta("a") == "b")
            #expect(scan(bytes, chunk: 1) == document)
        }
        #expect(scan(little).encoding == "UTF-16LE")
        #expect(scan(big).encoding == "UTF-16BE")
    }

    @Test func windows1252FallbackWithoutDeclaration() {
        let bytes = Array("<title>Caf".utf8) + [0xE9, 0x80] + Array("</title>".utf8)
        let document = scan(bytes)
        #expect(document.encoding == "windows-1252")
        #expect(document.title == "Café€")
    }

    @Test func invalidUTF8BecomesReplacementCharacter() {
        // A declared UTF-8 page with one stray Latin-1 byte: libxml2 alone
        // would switch the rest of the document to Latin-1.
        let bytes = Array("<meta charset=utf-8><title>a".utf8) + [0xE9] + Array("b — ok</title>".utf8)
        #expect(scan(bytes).title == "a\u{FFFD}b — ok")
        #expect(scan(bytes, chunk: 1).title == "a\u{FFFD}b — ok")
    }

    @Test func invalidMultiByteSequencesAreReplaced() {
        let bytes = Array("<meta charset=shift_jis><title>".utf8) + [0x93, 0xFA, 0xFF, 0x41] + Array("</title>".utf8)
        #expect(scan(bytes).title == "日\u{FFFD}A")
    }

    @Test func byteOrderMarkIsNotText() {
        let document = scan([0xEF, 0xBB, 0xBF] + Array("<title>x</title>".utf8), chunk: 1)
        #expect(document.title == "x")
        #expect(document.encoding == "UTF-8")
    }
}
