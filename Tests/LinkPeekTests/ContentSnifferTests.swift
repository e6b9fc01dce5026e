import Testing
@testable import LinkPeek

@Suite struct ContentSnifferTests {
    typealias F = ImageFixtures

    private func sniff(_ text: String) -> String? { ContentSniffer.sniff(F.ascii(text)) }

    @Test func html() {
        #expect(sniff("<!DOCTYPE html>\n<html>") == "text/html")
        #expect(sniff(" \r\n\t<!doctype HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">") == "text/html")
        #expect(sniff("<HTML lang=en>") == "text/html")
        #expect(sniff("<html\n  lang=en>") == "text/html")
        #expect(sniff("<head><title>x") == "text/html")
        #expect(sniff("<title>x</title>") == "text/html")
        #expect(sniff("<meta charset=utf-8>") == "text/html")
        #expect(sniff("<body>") == "text/html")
        #expect(sniff("<script src=x>") == "text/html")
        #expect(sniff("<!-- generated -->") == "text/html")
        #expect(sniff("<p>hello") == "text/html")
        #expect(ContentSniffer.sniff([0xEF, 0xBB, 0xBF] + F.ascii("<!DOCTYPE html>")) == "text/html")
        // Not a known opener, or not followed by a tag-terminating byte.
        #expect(sniff("<abbr>") == nil)
        #expect(sniff("<htmlx>") == nil)
    }

    @Test func leadingWhitespaceIsWHATWGs() {
        // Tab, line feed, form feed, carriage return and space are skipped
        // before the opener; a vertical tab is not whitespace to the standard.
        #expect(sniff("\u{0C}\t\r\n <html>") == "text/html")
        #expect(sniff("\u{0B}<html>") == nil)
    }

    @Test func xmlByRootElement() {
        let xhtml = """
            <?xml version="1.0" encoding="utf-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml">
            """
        #expect(sniff(xhtml) == "application/xhtml+xml")
        #expect(sniff("<?xml version='1.0'?><!-- c --><rss version=\"2.0\">") == "application/rss+xml")
        #expect(sniff("<?xml version='1.0'?><feed xmlns=\"http://www.w3.org/2005/Atom\">") == "application/atom+xml")
        #expect(sniff("<?xml version='1.0'?><svg xmlns=\"http://www.w3.org/2000/svg\">") == "image/svg+xml")
        #expect(sniff("<?xml version='1.0'?><note>") == "text/xml")
        #expect(sniff("<?xml") == "text/xml")
        #expect(sniff("<svg viewBox='0 0 1 1'>") == "image/svg+xml")
    }

    @Test func documentsAndImages() {
        #expect(sniff("%PDF-1.7\n%âãÏÓ") == "application/pdf")
        #expect(ContentSniffer.sniff(F.png) == "image/png")
        #expect(ContentSniffer.sniff(Array(F.jpeg.prefix(4))) == "image/jpeg")
        #expect(ContentSniffer.sniff(F.gif) == "image/gif")
        #expect(ContentSniffer.sniff(F.webpLossless) == "image/webp")
        #expect(ContentSniffer.sniff(F.ico) == "image/x-icon")
        #expect(ContentSniffer.sniff(F.bmp) == "image/bmp")
        #expect(ContentSniffer.sniff(F.avif) == "image/avif")
        #expect(ContentSniffer.sniff(F.heic) == "image/heic")
    }

    @Test func video() {
        #expect(ContentSniffer.sniff(F.mp4) == "video/mp4")
        #expect(ContentSniffer.sniff(F.box("ftyp", F.ascii("mp42") + F.be32(0))) == "video/mp4")
        #expect(ContentSniffer.sniff(F.box("ftyp", F.ascii("qt  ") + F.be32(0))) == "video/quicktime")
        #expect(ContentSniffer.sniff(F.box("ftyp", F.ascii("M4A ") + F.be32(0))) == "audio/mp4")
        let ebml: [UInt8] = [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0x82, 0x84]
        #expect(ContentSniffer.sniff(ebml + F.ascii("webm")) == "video/webm")
        #expect(ContentSniffer.sniff(ebml + F.ascii("matroska")) == "video/x-matroska")
    }

    @Test func audio() {
        #expect(ContentSniffer.sniff(F.ascii("ID3") + [4, 0, 0, 0, 0, 0x10, 0x00]) == "audio/mpeg")
        #expect(ContentSniffer.sniff([0xFF, 0xFB, 0x90, 0x64, 0x00]) == "audio/mpeg")  // MPEG-1 layer III, 128 kbit/s
        #expect(ContentSniffer.sniff([0xFF, 0xF1, 0x50, 0x80]) == "audio/aac")  // ADTS
        #expect(ContentSniffer.sniff([0xFF, 0xFB, 0xF0, 0x64]) == nil)  // "bad" bitrate index
        let ogg = F.ascii("OggS") + [0, 2] + [UInt8](repeating: 0, count: 22) + [0x01] + F.ascii("vorbis")
        #expect(ContentSniffer.sniff(ogg) == "audio/ogg")
        let theora = F.ascii("OggS") + [0, 2] + [UInt8](repeating: 0, count: 22) + [0x80] + F.ascii("theora")
        #expect(ContentSniffer.sniff(theora) == "video/ogg")
        #expect(ContentSniffer.sniff(F.ascii("RIFF") + F.le32(36) + F.ascii("WAVEfmt ")) == "audio/wav")
        #expect(ContentSniffer.sniff(F.ascii("fLaC") + [0, 0, 0, 34]) == "audio/flac")
    }

    @Test func unknownOrEmpty() {
        #expect(ContentSniffer.sniff([]) == nil)
        #expect(sniff("Just some plain text.") == nil)
        #expect(sniff("{\"json\": true}") == nil)
        #expect(ContentSniffer.sniff([0x00, 0x01, 0x02, 0x03]) == nil)
        #expect(ContentSniffer.sniff([0xEF, 0xBB, 0xBF]) == nil)
    }

    /// Every prefix of each sample: no crash, and the answers form one fixed sequence as the prefix grows —
    /// nothing until the signature is complete, then the type, never a different one later (XML: the
    /// generic `text/xml` until the root element's name is complete, then the type it names).
    @Test func everyPrefixGivesNothingThenTheType() {
        let samples: [([UInt8], [String?])] = [
            (F.png, [nil, "image/png"]), (F.jpeg, [nil, "image/jpeg"]), (F.gif, [nil, "image/gif"]),
            (F.webpExtended, [nil, "image/webp"]), (F.ico, [nil, "image/x-icon"]), (F.bmp, [nil, "image/bmp"]),
            (F.avif, [nil, "image/avif"]), (F.heic, [nil, "image/heic"]), (F.mp4, [nil, "video/mp4"]),
            (F.ascii("<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'b'>]><html>"),
             [nil, "text/xml", "application/xhtml+xml"]),
            (F.ascii("<svg width='10' height='5'>"), [nil, "image/svg+xml"]),
        ]
        for (sample, expected) in samples {
            var sequence: [String?] = []
            for length in 0...sample.count {
                let type = ContentSniffer.sniff(Array(sample.prefix(length)))
                if sequence.isEmpty || sequence[sequence.count - 1] != type { sequence.append(type) }
            }
            #expect(sequence == expected, "\(expected.last.flatMap { $0 } ?? "?")")
        }
    }

    /// NULs are binary unless the page is UTF-16 (a BOM, or the HTTP charset in any case).
    @Test func nulsAreTextInUTF16Only() {
        let bytes: [UInt8] = [0x3C, 0x00, 0x68, 0x00]
        #expect(PageConsumer.looksBinary(bytes, contentType: "text/html"))
        #expect(PageConsumer.looksBinary(bytes, contentType: nil))
        #expect(!PageConsumer.looksBinary(bytes, contentType: "text/html; charset=UTF-16LE"))
        #expect(!PageConsumer.looksBinary(bytes, contentType: "text/html;charset=utf-16"))
        #expect(PageConsumer.looksBinary(bytes, contentType: "text/html; charset=utf-8"))
        #expect(PageConsumer.looksBinary(bytes, contentType: "utf-1"))
    }
}
