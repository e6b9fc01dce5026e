import Testing
@testable import LinkPeek

/// `richness` says what was verified: an image or icon counts
/// only once linkpeek fetched it and its bytes were an image (`bytes` set).
@Suite struct RichnessTests {
    private func metadata(image: Int?, icon: Int?, video: Bool = false) -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: "https://example.com/")
        metadata.image = MediaResource(url: "https://example.com/i.png")
        metadata.image?.bytes = image
        metadata.icon = MediaResource(url: "https://example.com/favicon.ico")
        metadata.icon?.bytes = icon
        if video { metadata.video = MediaResource(url: "https://example.com/v.mp4") }
        return metadata
    }

    @Test func onlyVerifiedResourcesCount() {
        #expect(Richness(of: metadata(image: 2048, icon: 300)) == .image)
        // The image refused, failed or never fetched: the verified icon is what the preview has.
        #expect(Richness(of: metadata(image: nil, icon: 300)) == .icon)
        #expect(Richness(of: metadata(image: nil, icon: nil)) == .text)
        // A video is declared, never fetched: a card only links it.
        #expect(Richness(of: metadata(image: nil, icon: nil, video: true)) == .video)
        // The response itself was an image its bytes proved.
        #expect(Richness(of: metadata(image: nil, icon: nil), pageIsImage: true) == .image)
    }
}
