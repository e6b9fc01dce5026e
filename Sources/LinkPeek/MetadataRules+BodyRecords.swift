import HTMLHead

/// The words that decide which body elements the scanner records for the
/// rules: the one place they are written. HTMLHead only matches them
/// (`BodyRecords`); the rules in `+BodyText` and `+BodyMedia` judge what a
/// recorded element is, with the same lists.
extension MetadataRules {
    /// `class`, `id` or `rel` words of bylines: `class="author-name"`,
    /// `id="byline"`, `rel="author"` (and microformats' `p-author`).
    static let bylineMarkers = ["author", "byline"]

    /// What an `<a href>` to an author page holds (`/author/ann`, `?author=3`);
    /// `linksToAuthorPage` then checks the path segment precisely.
    static let authorLinkHrefs = ["/author", "author="]

    /// File extensions of audio and of video a link may point at directly.
    static let audioFileExtensions = ["mp3", "m4a", "ogg", "oga", "opus", "wav", "aac", "flac"]
    static let videoFileExtensions = ["mp4", "m4v", "webm", "mov", "ogv"]

    /// What the scanner should record from a page's body for these rules.
    public static let bodyRecords = BodyRecords(
        markers: bylineMarkers,
        linkHrefs: authorLinkHrefs,
        linkPathEndings: (audioFileExtensions + videoFileExtensions).map { "." + $0 },
        apart: chromeLandmarks)
}
