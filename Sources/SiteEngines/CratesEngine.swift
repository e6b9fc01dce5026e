import JSON
import Metadata

/// crates.io's API for `crates.io/crates/NAME[/VERSION]` and docs.rs's
/// `docs.rs/crate/NAME[/VERSION]` and `docs.rs/NAME[/VERSION]`.
public struct CratesEngine: SiteEngine {
    public let name = "crates"
    public let shapes = ["crates.io/crates/NAME[/VERSION]", "docs.rs/crate/NAME[/VERSION]", "docs.rs/NAME[/VERSION]"]

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        var s = url.segments[...]
        switch url.host {
        case "crates.io":
            guard s.first == "crates" else { return nil }
            s = s.dropFirst()
        case "docs.rs":
            if s.first == "crate" { s = s.dropFirst() }
        default:
            return nil
        }
        guard let crate = s.first, SiteURL.isName(crate), crate != "releases", crate != "about",
            s.count <= 2 || url.host == "docs.rs"
        else { return nil }
        var request = SiteRequest(engine: name, url: "https://crates.io/api/v1/crates/\(crate)", kind: "package")
        request.headers = ["Accept: application/json"]
        // A version in the link ("latest" on docs.rs means none).
        if s.count >= 2, case let version = s[s.index(after: s.startIndex)], version != "latest", SiteURL.isName(version) {
            request.parts["version"] = version
        }
        return request
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard let crate = answer["crate"], let name = crate["name"]?.text else { return nil }
        let wanted = request.parts["version"] ?? crate["max_stable_version"]?.text ?? crate["newest_version"]?.text
        let versions = answer["versions"]?.arrayValue ?? []
        let version = versions.first { $0["num"]?.text == wanted }
        let facts = PackageFacts(
            name: name, version: wanted, summary: crate["description"]?.text,
            license: version?["license"]?.text, repository: crate["repository"]?.text,
            author: version?["published_by"]?["login"]?.text, releasedAt: version?["created_at"]?.text)
        return facts.reading(engine: self.name, siteName: "crates.io", pageURL: pageURL)
    }
}
