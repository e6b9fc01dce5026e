import Testing
@testable import HTMLHead

/// Pages re-saved as UTF-8 by tools that kept their old `<meta charset>`
/// (the encoding misfit): the declared legacy encoding turns their text into
/// U+FFFD, the bytes are valid UTF-8, so UTF-8 wins and the misfit is kept.
@Suite struct EncodingMisfitTests {
    /// A page written for this test: a Shift_JIS declaration over UTF-8 text,
    /// with the first non-ASCII byte well before and after chunk edges.
    static func resavedPage(charset: String = "shift_jis", title: String = "日本語のページです") -> [UInt8] {
        Array("""
            <!doctype html><html><head><meta charset="\(charset)">
            <title>\(title)</title>
            <meta property="og:description" content="説明文：テスト用のページ。">
            </head><body><p>本文</p></body></html>
            """.utf8)
    }

    @Test(arguments: [nil, 1, 7, 512])
    func declaredShiftJISOverUTF8ReadsAsUTF8(chunk: Int?) {
        let document = scan(Self.resavedPage(), chunk: chunk)
        #expect(document.title == "日本語のページです")
        #expect(document.meta("og:description") == "説明文：テスト用のページ。")
        #expect(document.encoding == "UTF-8")
        #expect(document.declaredEncodingThatDidNotFit == "Shift_JIS")
    }

    @Test func theHTTPCharsetIsWatchedToo() {
        let bytes = Array("<title>한국어 페이지</title>".utf8)
        let document = scan(bytes, contentType: "text/html; charset=euc-kr", chunk: 3)
        #expect(document.title == "한국어 페이지")
        #expect(document.declaredEncodingThatDidNotFit == "EUC-KR")
    }

    /// GBK is decoded as gb18030, which maps every byte sequence UTF-8 can
    /// make to some character: no U+FFFD, so the rule never overrules it.
    @Test func aDeclarationThatNeverFailsStands() {
        let bytes = Array("<title>中文网页标题</title>".utf8)
        #expect(scan(bytes, contentType: "text/html; charset=gb2312").declaredEncodingThatDidNotFit == nil)
    }

    @Test func realShiftJISStaysShiftJIS() {
        let title: [UInt8] = [0x93, 0xFA, 0x96, 0x7B, 0x8C, 0xEA, 0x82, 0xCC, 0x83, 0x79, 0x81, 0x5B, 0x83, 0x57]
        let bytes = Array("<meta charset=\"shift_jis\"><title>".utf8) + title + Array("</title>".utf8)
        let document = scan(bytes, chunk: 5)
        #expect(document.title == "日本語のページ")
        #expect(document.encoding == "Shift_JIS")
        #expect(document.declaredEncodingThatDidNotFit == nil)
    }

    @Test func anASCIIOnlyPageKeepsItsDeclaration() {
        let document = scan(Array("<meta charset=\"shift_jis\"><title>Plain title</title><p>body</p>".utf8))
        #expect(document.title == "Plain title")
        #expect(document.encoding == "Shift_JIS")
        #expect(document.declaredEncodingThatDidNotFit == nil)
    }

    /// Valid UTF-8 that the declared encoding also reads without a U+FFFD
    /// (UTF-8 Cyrillic is valid KOI8-R): the declaration stands, as the rule says.
    @Test func aDeclarationThatDecodesCleanlyStands() {
        let document = scan(Self.resavedPage(charset: "koi8-r", title: "Привет"))
        #expect(document.encoding == "KOI8-R")
        #expect(document.declaredEncodingThatDidNotFit == nil)
    }

    /// A byte order mark is not a declaration the bytes can overrule, and
    /// invalid UTF-8 never switches.
    @Test func invalidUTF8NeverSwitches() {
        let bytes = Array("<meta charset=\"shift_jis\"><title>".utf8) + [0xE6, 0x97, 0x41] + Array("</title>".utf8)
        #expect(scan(bytes).declaredEncodingThatDidNotFit == nil)
    }
}
