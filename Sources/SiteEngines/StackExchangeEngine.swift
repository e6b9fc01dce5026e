import FoundationEssentials
import JSON
import Metadata

/// The Stack Exchange API (2.3, with its `site` parameter) for questions
/// and answers on Stack Overflow, Super User, Server Fault, Ask Ubuntu,
/// Math Overflow and `*.stackexchange.com`.
public struct StackExchangeEngine: SiteEngine {
    public let name = "stackexchange"
    public let shapes = [
        "stackoverflow.com/questions/ID", "stackoverflow.com/q/ID", "stackoverflow.com/a/ID",
        "superuser.com, serverfault.com, askubuntu.com, mathoverflow.net, SITE.stackexchange.com: the same",
    ]
    public static let apiHost = "api.stackexchange.com"
    static let named: [String: String] = [
        "stackoverflow.com": "stackoverflow", "superuser.com": "superuser", "serverfault.com": "serverfault",
        "askubuntu.com": "askubuntu", "mathoverflow.net": "mathoverflow",
    ]

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        let host = url.host.hasPrefix("www.") ? String(url.host.dropFirst(4)) : url.host
        let site: String
        if let known = Self.named[host] {
            site = known
        } else if host.hasSuffix(".stackexchange.com"), case let label = host.dropLast(".stackexchange.com".count),
            !label.contains("."), SiteURL.isName(String(label)), label != "api"
        {
            site = String(label)
        } else {
            return nil
        }
        let s = url.segments
        guard s.count >= 2, SiteURL.isNumber(s[1]) else { return nil }
        let kind: String
        switch s[0] {
        case "questions", "q": kind = "question"
        case "a": kind = "answer"
        default: return nil
        }
        let path = kind == "question" ? "questions" : "answers"
        var request = SiteRequest(
            engine: name, url: "https://\(Self.apiHost)/2.3/\(path)/\(s[1])?site=\(site)", kind: kind)
        request.headers = ["Accept: application/json"]
        request.parts = ["site": site]
        return request
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        // An error answer (`error_id`, a throttle among them) is not a preview.
        guard answer["error_id"] == nil, let item = answer["items"]?.arrayValue?.first, case .object = item else {
            return nil
        }
        var site = SiteInfo(engine: name, kind: request.kind)
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        site.score = item["score"]?.wholeNumber
        site.createdAt = item["creation_date"]?.wholeNumber.map(Self.iso8601)
        metadata.publishedTime = site.createdAt
        metadata.author = item["owner"]?["display_name"]?.text.map(SiteText.unescaped)
        if request.kind == "question" {
            guard let title = item["title"]?.text else { return nil }
            metadata.title = SiteText.unescaped(title)
            site.answers = item["answer_count"]?.wholeNumber
            site.accepted = item["accepted_answer_id"] != nil
            site.tags = item["tags"]?.arrayValue?.compactMap(\.text)
            site.closedAt = item["closed_date"]?.wholeNumber.map(Self.iso8601)
            site.state = site.closedAt == nil ? nil : "closed"
        } else {
            guard item["answer_id"] != nil else { return nil }
            site.accepted = item["is_accepted"] == .bool(true)
        }
        metadata.site = site
        // `backoff`: seconds before the next call of the same method.
        let hold = answer["backoff"]?.wholeNumber.map { min(max($0, 1), 3600) }
        return SiteReading(metadata: metadata, holdSeconds: hold)
    }

    static func iso8601(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
    }
}
