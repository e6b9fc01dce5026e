import Metadata

/// What the package registries' engines (PyPI, npm, crates.io) share: one
/// preview shape for a package at a version.
struct PackageFacts {
    var name: String
    var version: String?
    var summary: String?
    var license: String?
    var repository: String?
    var author: String?
    var releasedAt: String?

    func reading(engine: String, siteName: String, pageURL: String) -> SiteReading {
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        metadata.siteName = siteName
        metadata.title = name
        metadata.summary = SiteText.summary(summary)
        metadata.author = author
        metadata.publishedTime = releasedAt
        var site = SiteInfo(engine: engine, kind: "package")
        site.version = version
        // A licence field that holds the licence's whole text is not a name.
        site.license = license.flatMap { $0.count <= 64 && !$0.contains("\n") ? $0 : nil }
        site.repository = repository.flatMap { $0.hasPrefix("https://") || $0.hasPrefix("http://") ? $0 : nil }
        site.createdAt = releasedAt
        metadata.site = site
        return SiteReading(metadata: metadata)
    }
}
