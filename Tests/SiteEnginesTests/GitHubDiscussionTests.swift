import JSON
import Metadata
import Testing

@testable import SiteEngines

/// GitHub discussions: GraphQL only (REST v3 has none), so a POST that needs a token.
extension SiteEnginesTests {
    @Test func aDiscussionIsAGraphQLPostThatRequiresTheToken() throws {
        let made = try #require(request("https://github.com/apple/swift.git/discussions/4123"))
        #expect(made.url == "https://api.github.com/graphql" && made.kind == "discussion")
        #expect(made.requiresToken && made.token == "github" && made.tokenHost == "api.github.com")
        #expect(made.parts["repository"] == "apple/swift")
        let body = try json(String(decoding: try #require(made.body), as: UTF8.self))
        #expect(body["variables"] == .object(["owner": .string("apple"), "name": .string("swift"), "number": .int(4123)]))
        let query = try #require(body["query"]?.text)
        #expect(query.contains("repository(owner: $owner, name: $name)") && query.contains("discussion(number: $number)"))
        // The same link makes the same bytes (the tape keys a POST by them).
        #expect(request("https://github.com/apple/swift/discussions/4123")?.body == made.body)
        // The REST requests need no token.
        #expect(request("https://github.com/apple/swift/issues/4123")?.requiresToken == false)
    }

    @Test func notADiscussionNumberAsksNoEngine() {
        for link in [
            "https://github.com/apple/swift/discussions", "https://github.com/apple/swift/discussions/12x",
            "https://github.com/apple/swift/discussions/99999999999999999999999",
            "https://github.com/apple/swift/discussions/categories/ideas",
        ] {
            #expect(request(link) == nil, "\(link)")
        }
    }

    @Test func anAnsweredDiscussionReadsItsFacts() throws {
        let made = try #require(request("https://github.com/o/r/discussions/7"))
        let answer = try json("""
            {"data": {"repository": {"discussion": {"title": "How to X?", "number": 7, "body": "I tried Y.",
              "createdAt": "2026-01-02T03:04:05Z", "closed": true, "closedAt": "2026-01-09T00:00:00Z",
              "isAnswered": true, "upvoteCount": 12, "author": {"login": "alice"}, "category": {"name": "Q&A"},
              "comments": {"totalCount": 3}}}}}
            """)
        let reading = try #require(GitHubEngine().read(answer, for: made, pageURL: "https://github.com/o/r/discussions/7"))
        let site = try #require(reading.metadata.site)
        #expect(reading.metadata.title == "How to X?" && reading.metadata.author == "alice")
        #expect(reading.metadata.summary == "I tried Y." && reading.metadata.publishedTime == "2026-01-02T03:04:05Z")
        #expect(site.engine == "github" && site.kind == "discussion" && site.repository == "o/r")
        #expect(site.state == "closed" && site.number == 7 && site.accepted == true && site.score == 12)
        #expect(site.comments == 3 && site.category == "Q&A")
        #expect(site.createdAt == "2026-01-02T03:04:05Z" && site.closedAt == "2026-01-09T00:00:00Z")
    }

    @Test func anOpenUnansweredDiscussionIsOpenAndNotAccepted() throws {
        let made = try #require(request("https://github.com/o/r/discussions/8"))
        let answer = try json("""
            {"data": {"repository": {"discussion": {"title": "Idea", "number": 8, "closed": false, "closedAt": null,
              "isAnswered": false, "upvoteCount": 0, "author": null, "category": {"name": "Ideas"}, "comments": {"totalCount": 0}}}}}
            """)
        let site = try #require(GitHubEngine().read(answer, for: made, pageURL: "https://github.com/o/r/discussions/8")?.metadata.site)
        #expect(site.state == "open" && site.accepted == false && site.closedAt == nil && site.comments == 0)
    }

    @Test func aGraphQLErrorsAnswerIsNotADiscussion() throws {
        let made = try #require(request("https://github.com/o/r/discussions/9"))
        for text in [
            #"{"data": {"repository": {"discussion": null}}, "errors": [{"type": "NOT_FOUND", "message": "Could not resolve"}]}"#,
            #"{"data": null, "errors": [{"message": "Bad credentials"}]}"#,
            #"{"errors": [{"message": "Something went wrong"}]}"#,
            #"{"data": {"repository": {"discussion": {"number": 9}}}}"#,
        ] {
            #expect(GitHubEngine().read(try json(text), for: made, pageURL: "https://github.com/o/r/discussions/9") == nil, "\(text)")
        }
    }
}
