import Foundation
import Testing

@testable import LinkPeek

/// A miss's answer is the bytes the cache encoded for what it stored, with
/// `fromCache` as the answer has it: byte for byte what encoding the
/// answer would give, and encoded again only when the answer says more.
struct FetchedPreviewJSONTests {
    /// A preview with nested objects and a `sources` map that names `fromCache` too.
    func preview() -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: "https://example.com/a?q=\"fromCache\":true")
        metadata.title = #"A "fromCache":true {title} [x] \ end"#
        metadata.icon = MediaResource(url: "https://example.com/i.png", type: "image/png")
        metadata.sources = ["fromCache": "og:title", "title": "og:title"]
        metadata.fetchedAt = "2026-01-01T00:00:00Z"
        metadata.site = SiteInfo(engine: "github", kind: "repository")
        metadata.fromCache = false
        return metadata
    }

    func entry(storing metadata: LinkMetadata) -> CacheEntry {
        CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(3600))
    }

    @Test func aMissIsTheStoredBytesWithFromCacheFalse() throws {
        let metadata = preview()
        let fetched = FetchedPreview(metadata: metadata, stored: entry(storing: metadata))
        #expect(try fetched.json() == metadata.jsonBytes())
        #expect(try ServedJSON.fetchedForm(of: #require(entry(storing: metadata).servedJSON)) == metadata.jsonBytes())
    }

    @Test func aRevalidatedOrSharedAnswerIsTheStoredBytes() throws {
        var metadata = preview()
        metadata.fromCache = nil
        let stored = entry(storing: metadata)
        metadata.fromCache = true
        let fetched = FetchedPreview(metadata: metadata, stored: stored)
        #expect(try fetched.json() == metadata.jsonBytes())
        #expect(try fetched.json() == stored.servedJSON)
    }

    @Test func anAnswerThatSaysMoreThanTheStoredPreviewIsEncodedItself() throws {
        let kept = preview()
        var answer = kept
        answer.icon?.data = "iVBORw0KGgo="
        let fetched = FetchedPreview(metadata: answer, stored: entry(storing: kept))
        #expect(try fetched.json() == answer.jsonBytes())
        #expect(try fetched.json() != ServedJSON.fetchedForm(of: #require(entry(storing: kept).servedJSON)))
    }

    @Test func bytesWithoutTheMemberAtTheTopLevelHaveNoFetchedForm() {
        #expect(ServedJSON.fetchedForm(of: Array(#"{"a":{"fromCache":true}}"#.utf8)) == nil)
        #expect(ServedJSON.fetchedForm(of: Array(#"{"a":"\"fromCache\":true"}"#.utf8)) == nil)
        #expect(ServedJSON.fetchedForm(of: Array(#"{"b":1,"fromCache":true}"#.utf8)) == Array(#"{"b":1,"fromCache":false}"#.utf8))
    }
}
