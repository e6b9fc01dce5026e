import Foundation
import Testing
import TextTrimming

@testable import LinkPeek

struct CacheTests {
    private func entry(_ title: String) -> CacheEntry {
        var metadata = LinkMetadata(originalURL: "https://example.com/\(title)")
        metadata.title = title
        return CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(60))
    }

    @Test func forgetsTheLeastRecentlyUsedEntryFirst() {
        let cache = MemoryCache(capacity: 2)
        cache.store(entry("a"), for: "a")
        cache.store(entry("b"), for: "b")
        _ = cache.entry(for: "a")  // a is now newer than b
        cache.store(entry("c"), for: "c")
        #expect(cache.entry(for: "b") == nil)
        #expect(cache.entry(for: "a") != nil)
        #expect(cache.entry(for: "c") != nil)
        #expect(cache.count == 2)
    }

    @Test func replacingAnEntryKeepsOneCopy() {
        let cache = MemoryCache(capacity: 3)
        for _ in 0..<10 { cache.store(entry("a"), for: "a") }
        cache.store(entry("b"), for: "b")
        #expect(cache.count == 2)
    }

    @Test func staysBoundedUnderManyInserts() {
        let cache = MemoryCache(capacity: 100)
        for i in 0..<10_000 { cache.store(entry("\(i)"), for: "\(i)") }
        #expect(cache.count == 100)
        #expect(cache.entry(for: "9999") != nil)
        #expect(cache.entry(for: "0") == nil)
    }

    @Test func aPreviewIsEncodedOnceAsAHitServesIt() throws {
        var served = LinkMetadata(originalURL: "https://example.com/a")
        served.title = "a"
        served.fromCache = true
        #expect(entry("a").servedJSON == (try served.jsonBytes()))
        #expect(CacheEntry(value: .failure(.timedOut), expiresAt: Date()).servedJSON == nil)
    }

    @Test func freshnessIsJudgedAgainstExpiry() {
        let past = CacheEntry(value: .failure(.timedOut), expiresAt: Date().addingTimeInterval(-1))
        #expect(!past.isFresh())
        #expect(entry("x").isFresh())
        let noCache = CacheEntry(value: entry("y").value, expiresAt: Date().addingTimeInterval(60), mustRevalidate: true)
        #expect(!noCache.isFresh())
    }
}

struct TrimmingTests {
    @Test func trimsUnicodeWhiteSpaceOnly() {
        #expect("  \t\n héllo wörld \r\n".trimmedWhitespace == "héllo wörld")
        #expect("\u{00A0}\u{3000}title\u{2003}".trimmedWhitespace == "title")
        #expect("   ".trimmedWhitespace == "")
        #expect("".trimmedWhitespace == "")
        #expect("x".trimmedWhitespace == "x")
        #expect(" 日本語 ".trimmedWhitespace == "日本語")
        #expect("a b"[...].trimmedWhitespace == "a b")
    }
}
