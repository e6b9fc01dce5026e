import Testing

@testable import LinkPeekHTTP

@Suite struct HTTPRulesTests {
    @Test func loopbackAddressesBindWithoutTokens() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "LOCALHOST"] {
            #expect(BindRule.problem(host: host, hasTokens: false, noAuth: false) == nil, "\(host)")
        }
    }

    @Test func otherAddressesNeedTokensOrNoAuth() {
        for host in ["0.0.0.0", "10.0.0.1", "::", "example.com", "127.0.0.1.example.com", "1270.0.0.1"] {
            #expect(BindRule.problem(host: host, hasTokens: false, noAuth: false) != nil, "\(host)")
            #expect(BindRule.problem(host: host, hasTokens: true, noAuth: false) == nil, "\(host)")
            #expect(BindRule.problem(host: host, hasTokens: false, noAuth: true) == nil, "\(host)")
        }
    }

    @Test func addressesParse() throws {
        #expect(try BindRule.parse("127.0.0.1:8080").get() == ("127.0.0.1", 8080))
        #expect(try BindRule.parse("8080").get() == ("127.0.0.1", 8080))
        #expect(try BindRule.parse("[::1]:0").get() == ("::1", 0))
        for bad in ["", ":", "host:", "host:65536", "host:-1", "::1:80", "[::1]80", "h:99999999999999999999"] {
            #expect(throws: BindProblem.self, "\(bad)") { try BindRule.parse(bad).get() }
        }
    }

    @Test func tokensCompareWhole() {
        let tokens = TokenSet(tokens: ["alpha-token", "beta"])
        #expect(tokens.accepts("alpha-token".utf8))
        #expect(tokens.accepts("beta".utf8))
        #expect(!tokens.accepts("alpha-toke".utf8))
        #expect(!tokens.accepts("alpha-token2".utf8))
        #expect(!tokens.accepts("".utf8))
        #expect(!tokens.accepts("bet".utf8))
    }

    @Test func etagsMatchIfNoneMatchLists() {
        let etag = ETag.of(Array("{}".utf8))
        #expect(etag.count == 18)
        #expect(ETag.matches(etag, etag))
        #expect(ETag.matches("\"x\", W/\(etag)", etag))
        #expect(ETag.matches("*", etag))
        #expect(!ETag.matches("\"0000000000000000\"", etag))
        #expect(ETag.of(Array("{}".utf8)) != ETag.of(Array("{ }".utf8)))
    }

    @Test func cacheControlComesFromExpiresAt() {
        let json = Array(#"{"a":1,"expiresAt":"2026-01-02T00:00:10Z","title":"t"}"#.utf8)
        // 2026-01-02T00:00:00Z is 1767312000.
        #expect(PreviewFreshness.expiresAt(json) == 1_767_312_010)
        #expect(PreviewFreshness.cacheControl(json, now: 1_767_312_000) == "public, max-age=10")
        #expect(PreviewFreshness.cacheControl(json, now: 1_767_312_010) == "no-cache")
        #expect(PreviewFreshness.cacheControl(Array(#"{"expiresAt":"2026-13-01T00:00:00Z"}"#.utf8)) == "no-cache")
        #expect(PreviewFreshness.cacheControl(Array(#"{"expiresAt":"20"}"#.utf8)) == "no-cache")
    }

    @Test func clientLimitRefusesPastTheBurstAndRefills() {
        let limiter = ClientLimiter(rate: 3)
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(limiter.admit(.token("a"), now: start) == nil) }
        #expect(limiter.admit(.token("a"), now: start) == 1)
        #expect(limiter.admit(.token("b"), now: start) == nil)
        #expect(limiter.admit(.token("a"), now: start + .milliseconds(400)) == nil)
    }

    /// `SIGHUP`'s new rate applies from the next request: 0.2 s refills one token at 5/s, none at 1/s.
    @Test func clientLimitTakesANewRate() {
        let limiter = ClientLimiter(rate: 1)
        let start = ContinuousClock.now
        #expect(limiter.admit(.v4(1), now: start) == nil)
        #expect(limiter.admit(.v4(1), now: start) == 1)
        limiter.setRate(5)
        #expect(limiter.admit(.v4(1), now: start + .milliseconds(200)) == nil)
    }

    /// More slots (`SIGHUP`) let a waiter in while the first request still runs.
    @Test func gateResizeLetsAWaiterIn() async throws {
        let (gate, first, second, release) = try await Self.fullGate()
        gate.resize(slots: 2, queue: 1)
        #expect(await second.value == 2)
        release.finish()
        #expect(await first.value == 1)
    }

    @Test func gateRefusesPastSlotsAndQueue() async throws {
        let (gate, first, second, release) = try await Self.fullGate()
        #expect(await gate.run { 3 } == nil)
        release.yield()
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        #expect(gate.load.running == 0)
    }

    /// A gate of one slot and one place in its queue, both taken: the first
    /// request runs until `release` says, the second waits for its slot.
    /// Each state is waited for within ten seconds.
    private static func fullGate() async throws -> (
        gate: AdmissionGate, first: Task<Int?, Never>, second: Task<Int?, Never>, release: AsyncStream<Void>.Continuation
    ) {
        let gate = AdmissionGate(slots: 1, queue: 1)
        let (held, release) = AsyncStream<Void>.makeStream()
        let first = Task { await gate.run { for await _ in held { break } ; return 1 } }
        try await waitUntil("the first request runs") { gate.load.running == 1 }
        let second = Task { await gate.run { 2 } }
        try await waitUntil("the second request waits") { gate.load.waiting == 1 }
        return (gate, first, second, release)
    }

    private struct NeverReached: Error, CustomStringConvertible {
        let description: String
    }

    private static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw NeverReached(description: "never: \(what)") }
            await Task.yield()
        }
    }

    @Test func oembedSizesFitTheBounds() {
        #expect(OEmbedAnswer.fit(1200, 630, maxWidth: 600, maxHeight: nil) == (600, 315))
        #expect(OEmbedAnswer.fit(1200, 630, maxWidth: 600, maxHeight: 100) == (190, 100))
        #expect(OEmbedAnswer.fit(100, 50, maxWidth: 600, maxHeight: 600) == (100, 50))
        #expect(OEmbedAnswer.attribute("a\"<b>&") == "a&quot;&lt;b&gt;&amp;")
    }

    @Test func logLinesKeepTheHostOnly() throws {
        let parts = try #require(URLParts("https://user:pw@Example.com:8443/a/b?q=secret#frag"))
        #expect(parts.host == "Example.com")
        #expect(parts.authority == "Example.com:8443")
        #expect(parts.query == "q=secret")
        #expect(URLParts("not a url") == nil)
    }

    /// `X-Cache`: a level beats a join; a join with no level is `joined`, else `miss`.
    @Test func xCacheSaysJoinedForAJoinWithoutALevel() {
        #expect(XCache(nil, joined: true) == .joined)
        #expect(XCache(nil, joined: false) == .miss)
        #expect(XCache(.memory, joined: true) == .hit)
        #expect(XCache(.revalidated, joined: false) == .revalidated)
        #expect(XCache(.fleet) == .fleet)
    }
}
