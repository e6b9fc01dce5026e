import JSON
import Metadata

/// The npm registry for `www.npmjs.com/package/NAME` (scoped too) and
/// `…/v/VERSION`: the one version's document (`NAME/latest`), not the
/// whole package's, which runs to megabytes for popular packages.
public struct NpmEngine: SiteEngine {
    public let name = "npm"
    public let shapes = ["www.npmjs.com/package/NAME", "www.npmjs.com/package/@SCOPE/NAME", "…/v/VERSION"]

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        var s = url.segments[...]
        guard url.host == "www.npmjs.com" || url.host == "npmjs.com", s.first == "package" else { return nil }
        s = s.dropFirst()
        var package = ""
        if let scope = s.first, scope.hasPrefix("@"), s.count >= 2 {
            guard SiteURL.isName(String(scope.dropFirst())), SiteURL.isName(s[s.index(after: s.startIndex)]) else { return nil }
            package = "\(scope)%2F\(s[s.index(after: s.startIndex)])"
            s = s.dropFirst(2)
        } else if let plain = s.first, SiteURL.isName(plain) {
            package = plain
            s = s.dropFirst()
        } else {
            return nil
        }
        var version = "latest"
        if !s.isEmpty {
            guard s.count == 2, s.first == "v", let asked = s.last, SiteURL.isName(asked) else { return nil }
            version = asked
        }
        var request = SiteRequest(engine: name, url: "https://registry.npmjs.org/\(package)/\(version)", kind: "package")
        request.headers = ["Accept: application/json"]
        request.parts = ["package": package]
        return request
    }

    /// The packument's largest answer read: the release dates are only in
    /// the whole package's document, which runs to megabytes.
    static let packumentMaximumBytes = 4 * 1024 * 1024

    /// The whole package's document (the packument), for the version's
    /// release date (`time`); read only when it is at most 4 MiB.
    public func followUps(after reading: SiteReading, for request: SiteRequest) -> [SiteRequest] {
        guard let package = request.parts["package"], let version = reading.metadata.site?.version else { return [] }
        var followUp = SiteRequest(engine: name, url: "https://registry.npmjs.org/\(package)", kind: "packument")
        followUp.headers = ["Accept: application/json"]
        followUp.parts = ["version": version]
        followUp.maximumBytes = Self.packumentMaximumBytes
        return [followUp]
    }

    public func add(_ bytes: [UInt8], of followUp: SiteRequest, to reading: inout SiteReading) {
        guard followUp.kind == "packument", let version = followUp.parts["version"],
            case .success(let answer) = JSONParser.parse(bytes), let released = answer["time"]?[version]?.text
        else { return }
        reading.metadata.publishedTime = released
        reading.metadata.site?.createdAt = released
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard let name = answer["name"]?.text, let version = answer["version"]?.text else { return nil }
        var repository = answer["repository"]?.text ?? answer["repository"]?["url"]?.text
        if let url = repository, url.hasPrefix("git+") { repository = String(url.dropFirst(4)) }
        if let url = repository, url.hasSuffix(".git") { repository = String(url.dropLast(4)) }
        let facts = PackageFacts(
            name: name, version: version, summary: answer["description"]?.text,
            license: answer["license"]?.text ?? answer["license"]?["type"]?.text, repository: repository,
            author: answer["author"]?.text ?? answer["author"]?["name"]?.text, releasedAt: nil)
        return facts.reading(engine: self.name, siteName: "npm", pageURL: pageURL)
    }
}
