import Foundation
import Testing

@testable import LinkPeek

/// What a request in flight carries through the engine's stages. Every copy
/// of these values that an async function holds across an `await` is a slot
/// in the request's task frame, allocated until the request is answered; a
/// daemon with 64 fetches in flight holds 64 such chains. A `LinkMetadata`
/// is about 1.5 KB inline, so these carry it boxed.
struct InFlightFootprintTests {
    /// A pointer-sized preview and a few strings, options and keys; far
    /// below one inline `LinkMetadata`.
    static let limit = 512

    @Test func theValuesARequestCarriesHoldTheirPreviewByReference() {
        #expect(MemoryLayout<LinkMetadata>.size > Self.limit, "the preview itself is the large value boxed here")
        let sizes: [(String, Int)] = [
            ("CacheEntry", MemoryLayout<CacheEntry>.size),
            ("CacheLookup", MemoryLayout<CacheLookup>.size),
            ("PreviewRequest", MemoryLayout<PreviewRequest>.size),
            ("CacheAnswer", MemoryLayout<CacheAnswer>.size),
            ("CheckedRequest", MemoryLayout<CheckedRequest>.size),
            ("CachedAnswer", MemoryLayout<LinkPeekEngine.CachedAnswer>.size),
            ("PageLoad", MemoryLayout<LinkPeekEngine.PageLoad>.size),
            ("PreviewLoad", MemoryLayout<LinkPeekEngine.PreviewLoad>.size),
            ("LoadedPreview", MemoryLayout<LoadedPreview>.size),
            ("Result<LoadedPreview, FetchError>", MemoryLayout<Result<LoadedPreview, FetchError>>.size),
            ("FetchedPreview", MemoryLayout<FetchedPreview>.size),
        ]
        for (name, size) in sizes {
            #expect(size <= Self.limit, "\(name) is \(size) bytes inline")
        }
    }

    @Test func aBoxedPreviewIsStillAValue() {
        var first = FetchedPreview(metadata: LinkMetadata(originalURL: "https://example.com/a"))
        let second = first
        first.metadata.title = "changed"
        #expect(first.metadata.title == "changed")
        #expect(second.metadata.title == nil)

        var loaded = LoadedPreview(metadata: LinkMetadata(originalURL: "https://example.com/b"), stored: nil)
        let kept = loaded
        loaded.metadata.originalURL = "https://example.com/c"
        #expect(kept.metadata.originalURL == "https://example.com/b")
    }
}
