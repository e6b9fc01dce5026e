import FoundationEssentials
import Testing

@testable import LinkPeek

struct FreshnessTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func lifetime(_ fields: [String: String]) -> TimeInterval {
        Freshness(fields: fields, now: now).lifetime
    }

    @Test func lifetimeFollowsCacheControlWithinBounds() {
        #expect(lifetime([:]) == 24 * 3600)
        #expect(lifetime(["cache-control": "max-age=60"]) == 3600)
        #expect(lifetime(["cache-control": "public, max-age=7200"]) == 7200)
        #expect(lifetime(["cache-control": "max-age=99999999"]) == 7 * 24 * 3600)
        #expect(lifetime(["cache-control": "max-age=5000, s-maxage=10000"]) == 10000)
        #expect(lifetime(["cache-control": "s-maxage=4000, max-age=90000"]) == 4000)
        #expect(lifetime(["cache-control": "max-age=banana"]) == 24 * 3600)
        #expect(lifetime(["cache-control": "max-age=\"7200\""]) == 7200)
        #expect(lifetime(["cache-control": " max-age = 7200 "]) == 7200)
        #expect(lifetime(["cache-control": "max-age=1e400"]) == 24 * 3600)
    }

    @Test func expiresCountsFromTheServersDate() {
        let date = "Tue, 14 Nov 2023 22:13:20 GMT"  // == now
        #expect(lifetime(["expires": "Wed, 15 Nov 2023 04:13:20 GMT", "date": date]) == 6 * 3600)
        // Without Date, from now; max-age wins over Expires.
        #expect(lifetime(["expires": "Thu, 16 Nov 2023 22:13:20 GMT"]) == 48 * 3600)
        #expect(lifetime(["expires": "Thu, 16 Nov 2023 22:13:20 GMT", "cache-control": "max-age=7200"]) == 7200)
        // An unreadable or past Expires means expired: the minimum.
        #expect(lifetime(["expires": "0"]) == 3600)
        #expect(lifetime(["expires": "Mon, 13 Nov 2023 22:13:20 GMT", "date": date]) == 3600)
    }

    @Test func noStoreAndNoCacheAreNoted() {
        let noStore = Freshness(fields: ["cache-control": "private, no-store"], now: now)
        #expect(noStore.noStore && !noStore.noCache)
        let noCache = Freshness(fields: ["cache-control": "no-cache, max-age=100000"], now: now)
        #expect(noCache.noCache && !noCache.noStore && noCache.lifetime == 100000)
    }

    @Test func validatorsBecomeConditionalHeaders() {
        let fields = ["etag": " \"abc\" ", "last-modified": "Tue, 14 Nov 2023 22:13:20 GMT"]
        let freshness = Freshness(fields: fields, now: now)
        #expect(freshness.conditionalHeaders == [
            "If-None-Match: \"abc\"", "If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT",
        ])
        // A Last-Modified that is not a date is no validator.
        #expect(Freshness(fields: ["last-modified": "yesterday"], now: now).conditionalHeaders.isEmpty)
    }

    @Test func httpDatesInAllThreeFormats() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06 08:49:37 UTC
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.format(expected) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 31 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 25:49:37 GMT") == nil)
        #expect(HTTPDate.parse("") == nil)
    }

    @Test func failuresAreCachedByReason() {
        #expect(CacheLifetime.failure(.failed(.dns, "x")) < CacheLifetime.failure(.httpStatus(404)))
        #expect(CacheLifetime.failure(.failed(.connect, "x")) < CacheLifetime.failure(.httpStatus(404)))
        #expect(CacheLifetime.failure(.httpStatus(503)) < CacheLifetime.failure(.httpStatus(404)))
        #expect(CacheLifetime.caches(.httpStatus(404)))
        #expect(!CacheLifetime.caches(.timedOut))
        #expect(!CacheLifetime.caches(.cancelled))
        #expect(!CacheLifetime.caches(.failed(.notCached, "x")))
    }
}
