import Testing
@testable import HTMLHead

@Suite struct EncodingSnifferTests {
    private func sniff(_ text: String, http: String? = nil) -> EncodingSniffer.Result {
        EncodingSniffer.sniff(prefix: Array(text.utf8), httpCharset: http)
    }

    @Test func byteOrderMarksWinOverEverything() {
        let utf8 = EncodingSniffer.sniff(prefix: [0xEF, 0xBB, 0xBF, 0x3C], httpCharset: "shift_jis")
        #expect(utf8 == .init(encoding: .utf8, source: .byteOrderMark, bomLength: 3))
        let little = EncodingSniffer.sniff(prefix: [0xFF, 0xFE, 0x3C, 0x00], httpCharset: "utf-8")
        #expect(little.encoding.name == "UTF-16LE")
        #expect(little.bomLength == 2)
        let big = EncodingSniffer.sniff(prefix: [0xFE, 0xFF, 0x00, 0x3C], httpCharset: nil)
        #expect(big.encoding.name == "UTF-16BE")
        #expect(EncodingSniffer.couldBecomeByteOrderMark([0xEF, 0xBB]))
        #expect(!EncodingSniffer.couldBecomeByteOrderMark([0xEF, 0x41]))
    }

    @Test func httpCharsetBeatsMeta() {
        let result = sniff("<meta charset=utf-8>", http: "  GB2312 ")
        #expect(result.encoding.name == "GBK")
        #expect(result.source == .httpHeader)
        // An unknown label in the header is ignored, not fatal.
        #expect(sniff("<meta charset=koi8-r>", http: "bogus").encoding.name == "KOI8-R")
    }

    @Test func contentTypeCharsetParameter() {
        #expect(EncodingSniffer.charset(fromContentType: "text/html; charset=\"Shift_JIS\"") == "Shift_JIS")
        #expect(EncodingSniffer.charset(fromContentType: "text/html;Charset=utf-8;q=1") == "utf-8")
        #expect(EncodingSniffer.charset(fromContentType: "text/html") == nil)
    }

    @Test func metaCharsetForms() {
        #expect(sniff("<html><head><meta charset='windows-1251'>").encoding.name == "windows-1251")
        #expect(sniff("<META CHARSET=EUC-KR>").encoding.name == "EUC-KR")
        let pragma = #"<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">"#
        #expect(sniff(pragma).encoding.name == "Shift_JIS")
        #expect(sniff(pragma).source == .metaTag)
        // content= without http-equiv=content-type does not count.
        #expect(sniff(#"<meta content="text/html; charset=koi8-r">"#).source == .validUTF8)
        // Attribute order does not matter; quotes inside content are allowed.
        #expect(sniff(#"<meta content='text/html; charset="euc-jp"' http-equiv=content-type>"#).encoding.name == "EUC-JP")
    }

    @Test func prescanSkipsCommentsAndOtherTags() {
        #expect(sniff("<!-- <meta charset=koi8-r> --><meta charset=big5>").encoding.name == "Big5")
        #expect(sniff(#"<div title="<meta charset=koi8-r>"><meta charset=iso-8859-2>"#).encoding.name == "ISO-8859-2")
        let late = String(repeating: " ", count: 1100) + "<meta charset=koi8-r>"
        #expect(sniff(late).source == .validUTF8)
    }

    @Test func utf16InMetaMeansUTF8() {
        #expect(sniff("<meta charset=utf-16>").encoding == .utf8)
        #expect(sniff("<meta charset=utf-16be>").source == .metaTag)
        #expect(sniff("<meta charset=x-user-defined>").encoding == .windows1252)
    }

    @Test func xmlDeclarationAfterMeta() {
        let declared = sniff(#"<?xml version="1.0" encoding="ISO-8859-2"?><html>"#)
        #expect(declared.encoding.name == "ISO-8859-2")
        #expect(declared.source == .xmlDeclaration)
        #expect(sniff(#"<?xml version="1.0" encoding="UTF-16"?>"#).encoding == .utf8)
        let both = sniff(#"<?xml version="1.0" encoding="ISO-8859-2"?><meta charset=koi8-r>"#)
        #expect(both.encoding.name == "KOI8-R")
    }

    @Test func fallbackDependsOnUTF8Validity() {
        #expect(sniff("plain ascii").encoding == .utf8)
        #expect(EncodingSniffer.sniff(prefix: Array("café".utf8), httpCharset: nil).source == .validUTF8)
        // A sequence cut at the end of the prefix still counts as valid.
        #expect(EncodingSniffer.sniff(prefix: [0x41, 0xE6, 0x97], httpCharset: nil).encoding == .utf8)
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9, 0x20]
        #expect(EncodingSniffer.sniff(prefix: latin1, httpCharset: nil) == .init(encoding: .windows1252, source: .fallback, bomLength: 0))
    }

    @Test func labelMapping() {
        let cases: [(String, String)] = [
            ("gb2312", "GBK"), ("x-gbk", "GBK"), ("GBK", "GBK"), ("gb18030", "gb18030"),
            ("latin1", "windows-1252"), ("ISO-8859-1", "windows-1252"), ("us-ascii", "windows-1252"),
            ("ascii", "windows-1252"), ("sjis", "Shift_JIS"), ("windows-31j", "Shift_JIS"), ("ms932", "Shift_JIS"),
            ("ks_c_5601-1987", "EUC-KR"), ("euc-kr", "EUC-KR"), ("cp1251", "windows-1251"),
            ("koi8-r", "KOI8-R"), ("utf-16", "UTF-16LE"), ("utf-16be", "UTF-16BE"), ("big5", "Big5"),
            ("iso-8859-9", "windows-1254"), ("\t UTF8 \n", "UTF-8"), ("iso-2022-kr", "replacement"),
        ]
        for (label, name) in cases {
            #expect(WHATWGEncoding(label: label)?.name == name, "\(label)")
        }
        #expect(WHATWGEncoding(label: "utf-7") == nil)
        #expect(WHATWGEncoding(label: "") == nil)
    }

    /// Every encoding decoded by iconv has its preferred converter in the C
    /// library (a missing one would silently fall back to windows-1252).
    @Test func everyIconvConverterOpens() {
        for encoding in Set(WHATWGEncoding.byLabel.values) {
            guard case .iconv(let names, let unit) = encoding.decoder, let preferred = names.first else { continue }
            #expect(IconvDecoder(names: [preferred], unit: unit) != nil, "\(encoding.name) via \(preferred)")
        }
    }
}
