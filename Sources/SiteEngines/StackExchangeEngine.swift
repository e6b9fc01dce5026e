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

    /// The names the sites go by, by their API `site` parameter: those
    /// with a name of their own, then those called "… Stack Exchange".
    static let siteNames: [String: String] = [
        "stackoverflow": "Stack Overflow", "superuser": "Super User", "serverfault": "Server Fault",
        "askubuntu": "Ask Ubuntu", "mathoverflow": "MathOverflow", "stats": "Cross Validated", "gaming": "Arqade",
        "cooking": "Seasoned Advice", "apple": "Ask Different",
    ].merging([
        "math": "Mathematics", "unix": "Unix & Linux", "softwareengineering": "Software Engineering",
        "tex": "TeX - LaTeX", "english": "English Language & Usage", "codereview": "Code Review",
        "gamedev": "Game Development", "security": "Information Security", "dba": "Database Administrators",
        "electronics": "Electrical Engineering", "physics": "Physics", "datascience": "Data Science",
        "cs": "Computer Science", "crypto": "Cryptography", "android": "Android Enthusiasts",
        "gis": "Geographic Information Systems", "wordpress": "WordPress Development", "emacs": "Emacs",
        "vi": "Vi and Vim", "academia": "Academia", "diy": "Home Improvement", "photo": "Photography",
        "ux": "User Experience", "webmasters": "Webmasters", "raspberrypi": "Raspberry Pi", "arduino": "Arduino",
        "blender": "Blender", "mathematica": "Mathematica", "money": "Personal Finance & Money", "law": "Law",
        "workplace": "The Workplace", "softwarerecs": "Software Recommendations", "codegolf": "Code Golf",
        "networkengineering": "Network Engineering", "ai": "Artificial Intelligence", "devops": "DevOps",
        "cstheory": "Theoretical Computer Science", "scifi": "Science Fiction & Fantasy",
        "graphicdesign": "Graphic Design", "webapps": "Web Applications", "travel": "Travel",
        "chemistry": "Chemistry", "biology": "Biology", "history": "History", "philosophy": "Philosophy",
        "linguistics": "Linguistics", "music": "Music: Practice & Theory",
    ].mapValues { "\($0) Stack Exchange" }) { own, _ in own }

    /// The name of the site `site` (its API parameter); one not in the table is "Stack Exchange".
    static func siteName(_ site: String) -> String {
        siteNames[site] ?? "Stack Exchange"
    }

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
        metadata.siteName = request.parts["site"].map(Self.siteName)
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

    /// A `throttle_violation` holds the API for the seconds its message
    /// names ("… more requests available in 82216 seconds"), else for its
    /// `backoff`; any error answer's `backoff` holds it too (at most an hour).
    public func hold(errorAnswer bytes: [UInt8]) -> Int? {
        guard case .success(let answer) = JSONParser.parse(bytes) else { return nil }
        var seconds = answer["backoff"]?.wholeNumber
        if answer["error_name"]?.text == "throttle_violation", let message = answer["error_message"]?.text {
            let words = message.split(separator: " ")
            for (index, word) in words.enumerated() where word == "available" && index + 2 < words.count && words[index + 1] == "in" {
                let number = words[index + 2]
                if number.count <= 9, number.allSatisfy({ $0.isASCII && $0.isNumber }), let named = Int(number) { seconds = named }
            }
        }
        return seconds.map { min(max($0, 1), 3600) }
    }

    static func iso8601(_ seconds: Int) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
    }
}
