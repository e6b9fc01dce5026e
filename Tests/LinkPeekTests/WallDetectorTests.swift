import Testing
@testable import LinkPeek

/// Walls: which responses are a bot check, a consent prompt or a sign-in page, from signals that name no site.
@Suite struct WallDetectorTests {
    private func evidence(_ html: String, chunk: Int = .max) -> WallEvidence {
        var evidence = WallEvidence()
        let bytes = Array(html.utf8)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + max(1, min(chunk, bytes.count)))
            evidence.scan(bytes[start..<end])
            start = end
        }
        return evidence
    }

    private func response(
        _ status: Int = 200, fields: [String: String] = [:], asked: String = "https://a.test/p/1", hops: [String]? = nil,
        title: String? = nil, declares: Bool = false, html: String = ""
    ) -> WallDetector.Response {
        WallDetector.Response(
            status: status, fields: fields, originalURL: asked, hops: hops ?? [asked], title: title,
            declaresPreview: declares, evidence: evidence(html))
    }

    @Test func evidenceCountsMarkersAcrossChunkBoundaries() {
        let html = #"<FORM action=/x><input TYPE="password"></form><form><div class="h-captcha"></div></form><p>Just a moment...</p><formula>"#
        for chunk in [1, 2, 3, 7, 1000] {
            let found = evidence(html, chunk: chunk)
            #expect(found.forms == 2, "chunk \(chunk)")
            #expect(found.passwordFields == 1 && found.captcha && found.challengePhrase, "chunk \(chunk)")
        }
    }

    @Test func evidenceStopsAtItsBudget() {
        let late = String(repeating: " ", count: WallEvidence.maximumBytes) + "<form><input type=password>"
        let found = evidence(late, chunk: 4096)
        #expect(found.forms == 0 && found.passwordFields == 0 && found.isFull)
    }

    @Test func challenges() {
        #expect(WallDetector.detect(response(403, fields: ["cf-mitigated": "challenge"])) == .challenge)
        #expect(WallDetector.detect(response(200, fields: ["cf-mitigated": "Challenge"])) == .challenge)
        #expect(WallDetector.detect(response(503, html: "<title>Attention Required! | X</title>")) == .challenge)
        #expect(WallDetector.detect(response(429, html: #"<form><div class="g-recaptcha"></div></form>"#)) == .challenge)
        // A plain error page, a captcha word without a form, a 404 with bot-check words: not a challenge.
        #expect(WallDetector.detect(response(403, html: "<title>Forbidden</title>")) == nil)
        #expect(WallDetector.detect(response(403, html: "<p>we use recaptcha</p>")) == nil)
        #expect(WallDetector.detect(response(404, html: "<p>Just a moment</p>")) == nil)
        #expect(WallDetector.detect(response(403, fields: ["cf-mitigated": "none"])) == nil)
    }

    @Test func consentByRedirect() {
        for target in ["https://consent.a.test/?continue=x", "https://a.test/consent/ask", "https://a.test/gdpr-check",
                       "https://cookies.a.test/", "https://a.test/privacy-gate/"] {
            #expect(WallDetector.detect(response(hops: [target])) == .consent, "\(target)")
        }
        // A consent URL asked for is the page itself; a redirect elsewhere is no wall.
        #expect(WallDetector.detect(response(asked: "https://consent.a.test/", hops: ["https://consent.a.test/x"])) == nil)
        #expect(WallDetector.detect(response(hops: ["https://a.test/p/1/", "https://www.a.test/p/1"])) == nil)
        #expect(WallDetector.detect(response(hops: ["https://a.test/blog/consent-in-law"])) == nil)
        // Through a consent or sign-in URL and back to the content: the page was reached.
        #expect(WallDetector.detect(response(hops: ["https://consent.a.test/set", "https://a.test/p/1"])) == nil)
        #expect(WallDetector.detect(response(hops: ["https://login.a.test/sso", "https://a.test/p/1"])) == nil)
    }

    @Test func consentByPage() {
        let prompt = response(asked: "https://a.test/p/1", hops: ["https://a.test/p/1"], title: "Before you continue",
                              html: "<form><button>Accept all</button></form>")
        #expect(WallDetector.detect(prompt) == .consent)
        var declared = prompt
        declared.declaresPreview = true
        #expect(WallDetector.detect(declared) == nil)
        var formless = prompt
        formless.evidence = WallEvidence()
        #expect(WallDetector.detect(formless) == nil)
        #expect(WallDetector.detect(response(title: "Cookie recipes", html: "<form></form>")) == nil)
    }

    @Test func loginByRedirect() {
        for target in ["https://a.test/accounts/login/?next=/p/1", "https://a.test/i/flow/login", "https://a.test/users/sign_in",
                       "https://login.a.test/", "https://accounts.a.test/ServiceLogin?x=1", "https://a.test/signin"] {
            #expect(WallDetector.detect(response(hops: [target])) == .login, "\(target)")
        }
        #expect(WallDetector.detect(response(asked: "https://a.test/login", hops: ["https://a.test/login/"])) == nil)
        #expect(WallDetector.detect(response(hops: ["https://a.test/loginsight/page"])) == nil)
    }

    @Test func loginByPage() {
        let form = #"<form method=post><input name=u><input type='password' name=p></form>"#
        #expect(WallDetector.detect(response(html: form)) == .login)
        // Another form besides, a page that describes itself, a sign-in URL asked for: previews.
        #expect(WallDetector.detect(response(html: form + "<form action=/search></form>")) == nil)
        #expect(WallDetector.detect(response(declares: true, html: form)) == nil)
        #expect(WallDetector.detect(response(asked: "https://a.test/signin", html: form)) == nil)
        #expect(WallDetector.detect(response(404, html: form)) == nil)
    }

    @Test func wallsAreBriefFailuresThatSayWhy() {
        let error = FetchError.blocked(.consent)
        #expect(error.reason == .blocked && error.wall == .consent && error.kind == .failed)
        #expect(error.message == "Metadata fetch failed: the site asked for cookie consent before showing the page.")
        #expect(CacheLifetime.failure(error) == 60 && CacheLifetime.caches(error))
        #expect(LinkCard.reasonLine(error) == "blocked: consent page")
        #expect(LinkCard.reasonLine(.blocked(.challenge)) == "blocked: bot check")
        #expect(LinkCard.reasonLine(.blocked(.login)) == "blocked: sign-in page")
    }
}
