import HTMLHead
import Testing

import Metadata
@testable import Rules

/// A declared encoding that the bytes proved wrong is said in `sources`.
struct EncodingNoteTests {
    private func extract(_ html: String, contentType: String? = nil) -> LinkMetadata {
        let scanner = HeadScanner(contentType: contentType)
        scanner.feed(Array(html.utf8))
        return MetadataRules.extract(from: scanner.finish(), pageURL: "https://example.com/")
    }

    @Test func aMisfitDeclarationIsRecorded() {
        let metadata = extract("<meta charset=\"shift_jis\"><title>日本語のページ</title>")
        #expect(metadata.title == "日本語のページ")
        #expect(metadata.sources?["encoding"] == "utf-8 (declared shift_jis did not fit)")
    }

    @Test func aFittingDeclarationIsNotMentioned() {
        let metadata = extract("<meta charset=\"utf-8\"><title>日本語のページ</title>")
        #expect(metadata.sources?["encoding"] == nil)
    }
}
