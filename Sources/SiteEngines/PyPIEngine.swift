import JSON
import Metadata

/// PyPI's JSON API for `pypi.org/project/NAME` and `pypi.org/project/NAME/VERSION`.
public struct PyPIEngine: SiteEngine {
    public let name = "pypi"
    public let shapes = ["pypi.org/project/NAME", "pypi.org/project/NAME/VERSION"]

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        let s = url.segments
        guard url.host == "pypi.org" || url.host == "www.pypi.org", s.count == 2 || s.count == 3, s[0] == "project",
            s.dropFirst().allSatisfy(SiteURL.isName)
        else { return nil }
        let path = s.count == 3 ? "\(s[1])/\(s[2])" : s[1]
        var request = SiteRequest(engine: name, url: "https://pypi.org/pypi/\(path)/json", kind: "package")
        request.headers = ["Accept: application/json"]
        return request
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard let info = answer["info"], let name = info["name"]?.text else { return nil }
        let urls = info["project_urls"]?.objectValue ?? [:]
        let repository = ["Source", "Source Code", "Repository", "Code", "GitHub", "Homepage"].lazy
            .compactMap { urls[$0]?.text }.first
        let facts = PackageFacts(
            name: name, version: info["version"]?.text, summary: info["summary"]?.text,
            license: info["license_expression"]?.text ?? info["license"]?.text, repository: repository,
            author: info["author"]?.text, releasedAt: answer["urls"]?.arrayValue?.first?["upload_time_iso_8601"]?.text)
        return facts.reading(engine: self.name, siteName: "PyPI", pageURL: pageURL)
    }
}
