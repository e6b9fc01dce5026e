import JSON
import Metadata
import Testing

@testable import SiteEngines

/// Which links each engine answers (and which not), the request it names,
/// and how hand-written API answers become previews.
@Suite struct SiteEnginesTests {
    func request(_ url: String) -> SiteRequest? {
        SiteEngines.request(for: url, engines: SiteEngines.all())?.request
    }

    func json(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8)).get()
    }

    @Test func gitHubShapesNameTheirAPIRequests() {
        let api = "https://api.github.com/repos/apple/swift"
        let cases: [(String, String, String)] = [
            ("https://github.com/apple/swift", api, "repository"),
            ("https://github.com/apple/swift.git", api, "repository"),
            ("https://github.com/apple/swift/issues/12", "\(api)/issues/12", "issue"),
            ("https://github.com/apple/swift/pull/34/files", "\(api)/pulls/34", "pullRequest"),
            ("https://github.com/apple/swift/commit/abc123", "\(api)/commits/abc123", "commit"),
            ("https://github.com/apple/swift/releases/tag/swift-6.0", "\(api)/releases/tags/swift-6.0", "release"),
            ("https://github.com/apple/swift/blob/main/README.md", api, "file"),
            ("https://github.com/apple/swift/tree/main/lib", api, "folder"),
            ("https://gist.github.com/someone/aa5a315d61ae9438b18d", "https://api.github.com/gists/aa5a315d61ae9438b18d", "gist"),
        ]
        for (link, url, kind) in cases {
            let made = request(link)
            #expect(made?.url == url, "\(link)")
            #expect(made?.kind == kind, "\(link)")
            #expect(made?.token == "github" && made?.tokenHost == "api.github.com")
        }
    }

    @Test func linksThatAreNotAnEnginesShapeAskNoEngine() {
        for link in [
            "https://github.com/apple", "https://github.com/topics/swift", "https://github.com/apple/swift/issues",
            "https://github.com/apple/swift/issues/12x", "https://github.com/apple/swift/pulls",
            "https://github.com:8443/apple/swift", "https://user@github.com/apple/swift",
            "https://github.com/apple/swift/releases/tag/..", "ftp://github.com/apple/swift",
            "https://example.com/apple/swift", "https://stackoverflow.com/users/1", "https://stackoverflow.com/questions/ask",
            "https://en.wikipedia.org/wiki/Special:Random", "https://en.wikipedia.org/w/index.php",
            "https://a.b.wikipedia.org/wiki/X", "https://api.stackexchange.com/questions/1",
        ] {
            #expect(request(link) == nil, "\(link)")
        }
    }

    @Test func stackExchangeAndWikipediaShapes() {
        #expect(request("https://stackoverflow.com/questions/11227809/why-is-it-faster")?.url
            == "https://api.stackexchange.com/2.3/questions/11227809?site=stackoverflow")
        #expect(request("https://unix.stackexchange.com/q/42")?.url == "https://api.stackexchange.com/2.3/questions/42?site=unix")
        #expect(request("https://askubuntu.com/a/7")?.url == "https://api.stackexchange.com/2.3/answers/7?site=askubuntu")
        #expect(request("https://de.m.wikipedia.org/wiki/K%C3%B6ln#Lage")?.url
            == "https://de.wikipedia.org/api/rest_v1/page/summary/K%C3%B6ln")
    }

    @Test func aMergedPullRequestReadsItsStateLabelsAndDates() throws {
        let answer = try json("""
            {"number": 4123, "title": "Faster hovers", "state": "closed", "draft": false,
             "user": {"login": "octo"}, "body": "Makes   hovers\\nfaster.", "comments": 12,
             "labels": [{"name": "bug"}, {"name": "performance"}],
             "created_at": "2026-01-02T03:04:05Z", "closed_at": "2026-01-05T00:00:00Z", "merged_at": "2026-01-05T00:00:00Z"}
            """)
        let made = try #require(request("https://github.com/o/r/pull/4123"))
        let reading = try #require(GitHubEngine().read(answer, for: made, pageURL: "https://github.com/o/r/pull/4123"))
        let m = reading.metadata
        #expect(m.title == "Faster hovers" && m.summary == "Makes hovers faster." && m.author == "octo")
        #expect(m.publishedTime == "2026-01-02T03:04:05Z" && m.siteName == "GitHub")
        var site = SiteInfo(engine: "github", kind: "pullRequest")
        site.state = "merged"
        site.number = 4123
        site.comments = 12
        site.labels = ["bug", "performance"]
        site.createdAt = "2026-01-02T03:04:05Z"
        site.closedAt = "2026-01-05T00:00:00Z"
        site.mergedAt = "2026-01-05T00:00:00Z"
        site.repository = "o/r"
        #expect(m.site == site)
    }

    @Test func anOpenDraftIsDraftAndAnIssueLinkToAPullRequestIsOne() throws {
        let draft = try json(#"{"number": 1, "title": "WIP", "state": "open", "draft": true}"#)
        let pull = try #require(request("https://github.com/o/r/pull/1"))
        #expect(GitHubEngine().read(draft, for: pull, pageURL: "u")?.metadata.site?.state == "draft")
        let issue = try json(#"{"number": 2, "title": "T", "state": "closed", "pull_request": {"merged_at": null}}"#)
        let asked = try #require(request("https://github.com/o/r/issues/2"))
        let site = GitHubEngine().read(issue, for: asked, pageURL: "u")?.metadata.site
        #expect(site?.kind == "pullRequest" && site?.state == "closed")
    }

    @Test func aRepositoryACommitAndAnAnswerThatIsNotTheAPIs() throws {
        let repo = try json("""
            {"full_name": "o/r", "description": "A tool", "stargazers_count": 1234, "language": "Swift",
             "license": {"spdx_id": "MIT"}, "owner": {"login": "o"}}
            """)
        let asked = try #require(request("https://github.com/o/r"))
        let m = try #require(GitHubEngine().read(repo, for: asked, pageURL: "https://github.com/o/r")).metadata
        #expect(m.title == "o/r" && m.summary == "A tool" && m.site?.stars == 1234 && m.site?.license == "MIT")
        #expect(m.image?.url == "https://opengraph.githubassets.com/1/o/r")
        let commit = try json(#"{"sha": "abcdef0123", "commit": {"message": "Fix it\n\nBecause.", "author": {"name": "A", "date": "2026-01-01T00:00:00Z"}}}"#)
        let c = try #require(request("https://github.com/o/r/commit/abcdef0123"))
        let cm = try #require(GitHubEngine().read(commit, for: c, pageURL: "u")).metadata
        #expect(cm.title == "Fix it" && cm.summary == "Because." && cm.author == "A" && cm.site?.version == "abcdef0")
        for garbage in [#"[]"#, #"{"message": "Not Found"}"#, #"{"title": 3}"#] {
            #expect(GitHubEngine().read(try json(garbage), for: asked, pageURL: "u") == nil)
        }
    }

    @Test func aQuestionReadsScoreAnswersAcceptanceAndBackoff() throws {
        let answer = try json("""
            {"items": [{"title": "Why is &quot;x&quot; faster?", "score": 231, "answer_count": 14,
              "accepted_answer_id": 5, "tags": ["c++", "performance"], "owner": {"display_name": "Asker"},
              "creation_date": 1340000000}], "backoff": 10, "quota_remaining": 9}
            """)
        let asked = try #require(request("https://stackoverflow.com/questions/1"))
        let reading = try #require(StackExchangeEngine().read(answer, for: asked, pageURL: "u"))
        let m = reading.metadata
        #expect(m.title == #"Why is "x" faster?"# && m.author == "Asker" && m.publishedTime == "2012-06-18T06:13:20Z")
        #expect(m.site?.score == 231 && m.site?.answers == 14 && m.site?.accepted == true)
        #expect(m.site?.tags == ["c++", "performance"] && reading.holdSeconds == 10)
        #expect(m.siteName == "Stack Overflow")
        let throttled = try json(#"{"error_id": 502, "error_name": "throttle_violation", "items": []}"#)
        #expect(StackExchangeEngine().read(throttled, for: asked, pageURL: "u") == nil)
        let engine = StackExchangeEngine()
        let violation = #"{"error_id": 502, "error_name": "throttle_violation", "error_message": "too many requests from this IP, more requests available in 82 seconds"}"#
        #expect(engine.hold(errorAnswer: Array(violation.utf8)) == 82)
        #expect(engine.hold(errorAnswer: Array(#"{"error_id": 502, "error_name": "throttle_violation", "error_message": "available in 999999 seconds"}"#.utf8)) == 3600)
        #expect(engine.hold(errorAnswer: Array(#"{"error_id": 400, "error_name": "bad_parameter", "backoff": 5}"#.utf8)) == 5)
        #expect(engine.hold(errorAnswer: Array(#"{"error_id": 400, "error_name": "bad_parameter"}"#.utf8)) == nil)
        #expect(engine.hold(errorAnswer: Array("<html>".utf8)) == nil)
        #expect(GitHubEngine().hold(errorAnswer: Array(violation.utf8)) == nil, "the engine's own answers only")
    }

    @Test func stackExchangeSitesGoByTheirOwnNames() throws {
        let item = try json(#"{"items": [{"title": "Q", "score": 1}]}"#)
        for (link, name) in [
            ("https://superuser.com/q/1", "Super User"), ("https://unix.stackexchange.com/q/1", "Unix & Linux Stack Exchange"),
            ("https://stats.stackexchange.com/q/1", "Cross Validated"), ("https://mathoverflow.net/q/1", "MathOverflow"),
            ("https://woodworking.stackexchange.com/q/1", "Stack Exchange"),
        ] {
            let asked = try #require(request(link))
            #expect(StackExchangeEngine().read(item, for: asked, pageURL: link)?.metadata.siteName == name, "\(link)")
        }
    }

    @Test func aRepositoryFollowsUpWithItsLatestReleaseAndACommitWithItsChecks() throws {
        let engine = GitHubEngine()
        let repo = try #require(request("https://github.com/o/r"))
        var reading = try #require(engine.read(try json(#"{"full_name": "o/r", "stargazers_count": 3}"#), for: repo, pageURL: "u"))
        let releases = engine.followUps(after: reading, for: repo)
        #expect(releases.map(\.url) == ["https://api.github.com/repos/o/r/releases/latest"])
        #expect(releases.allSatisfy { $0.token == "github" && $0.tokenHost == "api.github.com" })
        engine.add(Array(#"{"tag_name": "v1.2.0", "name": "One two"}"#.utf8), of: releases[0], to: &reading)
        #expect(reading.metadata.site?.latestRelease == "v1.2.0")
        engine.add(Array("<html>".utf8), of: releases[0], to: &reading)
        #expect(reading.metadata.site?.latestRelease == "v1.2.0", "garbage changes nothing")

        let commit = try #require(request("https://github.com/o/r/commit/abc123"))
        var read = try #require(engine.read(
            try json(#"{"sha": "abc1234567", "commit": {"message": "Fix"}}"#), for: commit, pageURL: "u"))
        let checks = try #require(engine.followUps(after: read, for: commit).first)
        #expect(checks.url == "https://api.github.com/repos/o/r/commits/abc123/check-runs?per_page=100")
        for (runs, state) in [
            (#"[{"status": "completed", "conclusion": "success"}, {"status": "completed", "conclusion": "skipped"}]"#, "success"),
            (#"[{"status": "in_progress", "conclusion": null}, {"status": "completed", "conclusion": "success"}]"#, "pending"),
            (#"[{"status": "in_progress"}, {"status": "completed", "conclusion": "timed_out"}]"#, "failure"),
        ] {
            engine.add(Array(#"{"total_count": 2, "check_runs": \#(runs)}"#.utf8), of: checks, to: &read)
            #expect(read.metadata.site?.checks == state, "\(runs)")
        }
        var none = read
        none.metadata.site?.checks = nil
        engine.add(Array(#"{"total_count": 0, "check_runs": []}"#.utf8), of: checks, to: &none)
        #expect(none.metadata.site?.checks == nil, "no runs, no state")
        #expect(engine.followUps(after: read, for: try #require(request("https://github.com/o/r/pull/1"))).isEmpty)
    }

    @Test func anNpmPackageFollowsUpWithItsPackumentForTheReleaseDate() throws {
        let engine = NpmEngine()
        let asked = try #require(request("https://www.npmjs.com/package/@scope/pad"))
        var reading = try #require(engine.read(try json(#"{"name": "@scope/pad", "version": "1.3.0"}"#), for: asked, pageURL: "u"))
        let packument = try #require(engine.followUps(after: reading, for: asked).first)
        #expect(packument.url == "https://registry.npmjs.org/@scope%2Fpad" && packument.maximumBytes == 4 * 1024 * 1024)
        engine.add(Array(#"{"time": {"1.2.0": "2017-01-01T00:00:00Z"}}"#.utf8), of: packument, to: &reading)
        #expect(reading.metadata.publishedTime == nil, "no date for the version, none made up")
        engine.add(Array(#"{"time": {"1.2.0": "2017-01-01T00:00:00Z", "1.3.0": "2018-04-09T01:11:42Z"}}"#.utf8),
                   of: packument, to: &reading)
        #expect(reading.metadata.publishedTime == "2018-04-09T01:11:42Z" && reading.metadata.site?.createdAt == "2018-04-09T01:11:42Z")
    }

    @Test func anArticleReadsItsExtractThumbnailAndLanguage() throws {
        let answer = try json("""
            {"type": "standard", "title": "Köln", "titles": {"normalized": "Köln"}, "lang": "de",
             "description": "Stadt am Rhein", "extract": "Köln ist eine Stadt.",
             "thumbnail": {"source": "https://upload.wikimedia.org/k.jpg", "width": 320, "height": 213}}
            """)
        let asked = try #require(request("https://de.wikipedia.org/wiki/K%C3%B6ln"))
        let m = try #require(WikipediaEngine().read(answer, for: asked, pageURL: "u")).metadata
        #expect(m.title == "Köln" && m.summary == "Köln ist eine Stadt." && m.lang == "de")
        #expect(m.image == MediaResource(url: "https://upload.wikimedia.org/k.jpg", width: 320, height: 213))
        #expect(m.site?.description == "Stadt am Rhein" && m.site?.language == "de" && m.site?.kind == "article")
    }

    @Test func gitHubHoldsTheAPIOnlyWhenItsLimitIsSpent() {
        let engine = GitHubEngine()
        let spent = ["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1100"]
        #expect(engine.hold(status: 403, field: { spent[$0] }, now: 1000) == 100)
        #expect(engine.hold(status: 403, field: { ["x-ratelimit-remaining": "5"][$0] }, now: 1000) == nil)
        #expect(engine.hold(status: 200, field: { spent[$0] }, now: 1000) == nil)
        #expect(engine.hold(status: 429, field: { ["retry-after": "30"][$0] }, now: 1000) == 30)
    }

    static let atom = """
        <?xml version="1.0" encoding="UTF-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
          <title>ArXiv Query</title>
          <entry>
            <id>http://arxiv.org/abs/1706.03762v7</id>
            <updated>2023-08-02T00:41:18Z</updated>
            <published>2017-06-12T17:57:34Z</published>
            <title>Attention Is All
              You Need</title>
            <summary>  The dominant sequence transduction models &amp; more.
            </summary>
            <author><name>Ashish Vaswani</name></author>
            <author><name>Noam Shazeer</name></author>
            <author><name>Łukasz Kaiser</name></author>
            <link title="pdf" href="https://arxiv.org/pdf/1706.03762v7" rel="related" type="application/pdf"/>
            <arxiv:primary_category term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
          </entry>
        </feed>
        """

    @Test func arXivShapesAndAnAtomEntryWithEveryAuthor() throws {
        #expect(request("https://arxiv.org/abs/1706.03762v7")?.url == "https://export.arxiv.org/api/query?id_list=1706.03762v7")
        #expect(request("https://arxiv.org/pdf/1706.03762.pdf")?.url == "https://export.arxiv.org/api/query?id_list=1706.03762")
        #expect(request("https://arxiv.org/abs/hep-th/9901001")?.url == "https://export.arxiv.org/api/query?id_list=hep-th/9901001")
        #expect(request("https://arxiv.org/list/cs.CL/recent") == nil)
        let asked = try #require(request("https://arxiv.org/abs/1706.03762"))
        let m = try #require(ArxivEngine().read(bytes: Array(Self.atom.utf8), for: asked, pageURL: "u")).metadata
        #expect(m.title == "Attention Is All You Need" && m.summary == "The dominant sequence transduction models & more.")
        #expect(m.author == "Ashish Vaswani, Noam Shazeer, Łukasz Kaiser" && m.publishedTime == "2017-06-12T17:57:34Z")
        #expect(m.site?.authors == ["Ashish Vaswani", "Noam Shazeer", "Łukasz Kaiser"] && m.site?.category == "cs.CL")
        #expect(m.site?.pdf == "https://arxiv.org/pdf/1706.03762v7" && m.site?.updatedAt == "2023-08-02T00:41:18Z")
        let error = #"<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/api/errors</id><title>Error</title></entry></feed>"#
        for bad in [error, #"<feed xmlns="http://www.w3.org/2005/Atom"></feed>"#, "<html><title>x</title>", "{}", ""] {
            #expect(ArxivEngine().read(bytes: Array(bad.utf8), for: asked, pageURL: "u") == nil, "\(bad)")
        }
    }

    @Test func packageRegistriesShapesAndAnswers() throws {
        #expect(request("https://pypi.org/project/requests/")?.url == "https://pypi.org/pypi/requests/json")
        #expect(request("https://pypi.org/project/requests/2.31.0/")?.url == "https://pypi.org/pypi/requests/2.31.0/json")
        #expect(request("https://www.npmjs.com/package/@types/node")?.url == "https://registry.npmjs.org/@types%2Fnode/latest")
        #expect(request("https://www.npmjs.com/package/left-pad/v/1.3.0")?.url == "https://registry.npmjs.org/left-pad/1.3.0")
        #expect(request("https://crates.io/crates/serde/1.0.200")?.parts["version"] == "1.0.200")
        #expect(request("https://docs.rs/serde/latest/serde/")?.url == "https://crates.io/api/v1/crates/serde")
        #expect(request("https://pypi.org/search/?q=x") == nil && request("https://www.npmjs.com/search?q=x") == nil)
        let pypi = try json("""
            {"info": {"name": "requests", "version": "2.31.0", "summary": "HTTP for Humans.", "license": "Apache 2.0",
              "author": "Kenneth Reitz", "project_urls": {"Source": "https://github.com/psf/requests"}},
             "urls": [{"upload_time_iso_8601": "2023-05-22T15:12:42.313790Z"}]}
            """)
        let asked = try #require(request("https://pypi.org/project/requests/"))
        let p = try #require(PyPIEngine().read(pypi, for: asked, pageURL: "u")).metadata
        #expect(p.title == "requests" && p.summary == "HTTP for Humans." && p.author == "Kenneth Reitz")
        #expect(p.site?.version == "2.31.0" && p.site?.license == "Apache 2.0" && p.site?.repository == "https://github.com/psf/requests")
        let npm = try json(#"{"name": "left-pad", "version": "1.3.0", "license": "WTFPL", "repository": {"url": "git+https://github.com/stevemao/left-pad.git"}}"#)
        let npmAsked = try #require(request("https://www.npmjs.com/package/left-pad"))
        let n = try #require(NpmEngine().read(npm, for: npmAsked, pageURL: "u"))
        #expect(n.metadata.site?.repository == "https://github.com/stevemao/left-pad" && n.metadata.site?.license == "WTFPL")
        let crates = try json("""
            {"crate": {"name": "serde", "max_stable_version": "1.0.200", "description": "A serialization framework",
              "repository": "https://github.com/serde-rs/serde"},
             "versions": [{"num": "1.0.200", "license": "MIT OR Apache-2.0", "created_at": "2024-05-01T00:00:00Z"}]}
            """)
        let cratesAsked = try #require(request("https://crates.io/crates/serde"))
        let c = try #require(CratesEngine().read(crates, for: cratesAsked, pageURL: "u"))
        #expect(c.metadata.site?.version == "1.0.200" && c.metadata.site?.license == "MIT OR Apache-2.0")
        #expect(c.metadata.site?.createdAt == "2024-05-01T00:00:00Z")
        let longLicense = try json(#"{"info": {"name": "x", "license": "Permission is hereby granted, free of charge, to any person obtaining a copy of this software"}}"#)
        #expect(PyPIEngine().read(longLicense, for: asked, pageURL: "u")?.metadata.site?.license == nil)
    }

    @Test func gitLabShapesOnItsHostsAndItsTokenOnGitLabComOnly() throws {
        let engines = SiteEngines.all(gitlabHosts: ["git.example.org"])
        let mr = try #require(SiteEngines.request(for: "https://gitlab.com/g/sub/p/-/merge_requests/5/diffs", engines: engines)).request
        #expect(mr.url == "https://gitlab.com/api/v4/projects/g%2Fsub%2Fp/merge_requests/5" && mr.kind == "mergeRequest")
        #expect(mr.token == "gitlab" && mr.tokenHost == "gitlab.com")
        let own = try #require(SiteEngines.request(for: "https://git.example.org/g/p/-/issues/3", engines: engines)).request
        #expect(own.url == "https://git.example.org/api/v4/projects/g%2Fp/issues/3" && own.token == nil && own.tokenHost == nil)
        #expect(SiteEngines.request(for: "https://git.example.org/g/p", engines: SiteEngines.all()) == nil)
        #expect(SiteEngines.request(for: "http://gitlab.com/g/p", engines: engines) == nil)
        #expect(SiteEngines.request(for: "https://gitlab.com/explore/projects", engines: engines) == nil)
        let answer = try json(#"{"iid": 5, "title": "Draft: faster", "state": "opened", "draft": true, "labels": ["perf"], "user_notes_count": 2, "author": {"username": "a"}}"#)
        let site = GitLabEngine().read(answer, for: mr, pageURL: "u")?.metadata.site
        #expect(site?.state == "draft" && site?.number == 5 && site?.labels == ["perf"] && site?.comments == 2)
    }
}
