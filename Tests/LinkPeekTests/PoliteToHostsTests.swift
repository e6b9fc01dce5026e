import FoundationEssentials
import Testing

@testable import LinkPeek

struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    @Test func deltaSecondsAreReadAndClampedToTenMinutes() {
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds(" 7 ", now: now) == 7)
        #expect(RetryAfter.seconds("0", now: now) == 0)
        #expect(RetryAfter.seconds("000042", now: now) == 42)
        #expect(RetryAfter.seconds("601", now: now) == 600)
        #expect(RetryAfter.seconds("86400", now: now) == 600)
        #expect(RetryAfter.seconds(String(repeating: "9", count: 400), now: now) == 600)
    }

    @Test func httpDatesCountFromNowRoundedUpAndClamped() {
        #expect(RetryAfter.seconds("Tue, 14 Nov 2023 22:15:20 GMT", now: now) == 120)
        #expect(RetryAfter.seconds("Tuesday, 14-Nov-23 22:14:20 GMT", now: now) == 60)
        #expect(RetryAfter.seconds("Tue Nov 14 22:13:50 2023", now: now) == 30)
        #expect(RetryAfter.seconds("Tue, 14 Nov 2023 22:13:20 GMT", now: now.addingTimeInterval(-0.25)) == 1)
        #expect(RetryAfter.seconds("Wed, 15 Nov 2023 22:13:20 GMT", now: now) == 600)
        #expect(RetryAfter.seconds("Mon, 13 Nov 2023 22:13:20 GMT", now: now) == 0)
    }

    @Test func garbageIsNoAnswer() {
        for value in [nil, "", "  ", "-5", "1.5", "soon", "120s", "1e3", "Tue, 99 Nov 2023 22:13:20 GMT"] {
            #expect(RetryAfter.seconds(value, now: now) == nil, "value: \(value ?? "nil")")
        }
    }
}

struct HostBackoffTests {
    @Test func aHeldHostAnswersWithTheSecondsLeftAndOthersAreFree() {
        let backoff = HostBackoff()
        backoff.hold("a.test:443", seconds: 120)
        let left = backoff.remaining("a.test:443")
        #expect(left == 120)
        #expect(backoff.remaining("b.test:443") == nil)
        #expect(backoff.remaining("a.test:80") == nil)
        // A shorter hold does not shorten a longer one; a longer one extends it.
        backoff.hold("a.test:443", seconds: 5)
        #expect(backoff.remaining("a.test:443") == 120)
        backoff.hold("a.test:443", seconds: 300)
        #expect(backoff.remaining("a.test:443") == 300)
        backoff.hold("c.test:443", seconds: 0)
        #expect(backoff.remaining("c.test:443") == nil)
        backoff.hold("d.test:443", seconds: .max)
        #expect(backoff.remaining("d.test:443") == RetryAfter.maximumSeconds)
    }

    @Test func keysAreHostAndPort() {
        #expect(HostBackoff.key(for: "https://Example.COM/a") == "example.com:443")
        #expect(HostBackoff.key(for: "http://example.com/a") == "example.com:80")
        #expect(HostBackoff.key(for: "http://127.0.0.1:8080/x") == "127.0.0.1:8080")
        #expect(HostBackoff.key(for: "not a url") == nil)
    }

    @Test func theTableStaysBounded() {
        let backoff = HostBackoff()
        for index in 0..<(HostBackoff.capacity + 50) { backoff.hold("h\(index).test:443", seconds: 60 + index) }
        // The last ones, with the furthest deadlines, are kept.
        #expect(backoff.remaining("h\(HostBackoff.capacity + 49).test:443") != nil)
        #expect(backoff.remaining("h0.test:443") == nil)
    }

    @Test func rateLimitedErrorsSaySoAndAreNotCached() {
        let error = FetchError.rateLimited(host: "a.test", seconds: 120, status: 429)
        #expect(error.reason == .rateLimited && error.retryAfter == 120 && error.status == 429)
        #expect(error.message == "Metadata fetch failed: a.test asked linkpeek to slow down (HTTP 429); it is not asked again for 120 seconds.")
        #expect(!CacheLifetime.caches(error))
        // Cards (the hover's too) say it in a few words.
        #expect(LinkCard.reasonLine(error) == "rate limited: retry in 120 s")
        #expect(LinkCard.reasonLine(.rateLimited(host: "a.test", seconds: 1, status: nil)) == "rate limited: retry in 1 s")
        #expect(FetchError.rateLimited(host: "a.test", seconds: 1, status: nil).message
            == "Metadata fetch failed: a.test asked linkpeek to slow down; it is not asked again for 1 second.")
    }
}

struct HostPacingTests {
    @Test func atMostTwoOfOneHostRunAndOtherHostsGoAhead() {
        let urls = (0..<5).map { "https://one.test/\($0)" } + ["https://two.test/a", "https://two.test/b"]
        var pacing = HostPacing(urls: urls, perHost: 2)
        var started: [Int] = []
        var pauses: [Duration] = []
        while let (index, pause) = pacing.next() {
            started.append(index)
            pauses.append(pause)
        }
        #expect(started == [0, 1, 5, 6])
        // A host's first request goes at once; the next ones after a jitter.
        #expect(pauses[0] == .zero && pauses[2] == .zero)
        #expect(pauses[1] >= .milliseconds(HostPacing.jitter.lowerBound) && pauses[1] <= .milliseconds(HostPacing.jitter.upperBound))
        pacing.finished(0)
        #expect(pacing.next()?.index == 2)
        #expect(pacing.next() == nil)
    }
}

struct UserLanguageTests {
    @Test func localesBecomeAcceptLanguage() {
        #expect(UserLanguage.acceptLanguage(locale: "de_DE.UTF-8") == "de-DE,de;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "pt_BR") == "pt-BR,pt;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "fr") == "fr")
        #expect(UserLanguage.acceptLanguage(locale: "sr_RS@latin") == "sr-RS,sr;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "ca_ES.UTF-8@valencia") == "ca-ES,ca;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "es_419.UTF-8") == "es-419,es;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "EN_us") == "en-US,en;q=0.9")
        #expect(UserLanguage.acceptLanguage(locale: "fil_PH") == "fil-PH,fil;q=0.9")
        for none in ["C", "POSIX", "C.UTF-8", "", "de_DE_x", "1234", "d_DE", "de_D", "de DE", "de_DE\r\nX: y", "ünï_DE"] {
            #expect(UserLanguage.acceptLanguage(locale: none) == nil, "locale: \(none)")
        }
    }

    @Test func lcAllThenLcMessagesThenLang() {
        func language(_ environment: [String: String]) -> String? {
            UserLanguage.acceptLanguage { environment[$0] }
        }
        #expect(language(["LANG": "de_DE.UTF-8"]) == "de-DE,de;q=0.9")
        #expect(language(["LANG": "de_DE.UTF-8", "LC_MESSAGES": "fr_FR"]) == "fr-FR,fr;q=0.9")
        #expect(language(["LANG": "de_DE", "LC_MESSAGES": "fr_FR", "LC_ALL": "it_IT"]) == "it-IT,it;q=0.9")
        // Set but empty does not count; set to C means none, even over LANG.
        #expect(language(["LANG": "de_DE", "LC_ALL": ""]) == "de-DE,de;q=0.9")
        #expect(language(["LANG": "de_DE", "LC_ALL": "C"]) == nil)
        #expect(language(["LANG": "C"]) == nil)
        #expect(language([:]) == nil)
    }
}
