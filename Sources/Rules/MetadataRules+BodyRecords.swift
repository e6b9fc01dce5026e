import HTMLHead

/// The words that decide which body elements the scanner records for the
/// rules: the one place they are written. HTMLHead only matches them
/// (`BodyRecords`); the rules in `+BodyText` and `+BodyMedia` judge what a
/// recorded element is, with the same lists.
extension MetadataRules {
    /// `class`, `id`, `rel` or `data-testid` words of bylines, anywhere in
    /// the value: `class="author-name"`, `id="byline"`, `rel="author"` (and
    /// microformats' `p-author`), `data-testid="author-link"`.
    package static let bylineMarkers = ["author", "byline"]
    /// … and only as a whole token (`class="writer"`, `writer-name`, not
    /// `Songwriters_Hall`). The scanner records on the substring; the rules
    /// (`isMarkedByline`) check the token.
    /// The French, Spanish, German, Portuguese and Italian words too
    /// (`class="auteur"`, `autor`, `autore`), as whole tokens: "autor" is
    /// a piece of `autoresize`.
    static let bylineTokenMarkers = ["writer", "auteur", "autor", "autora", "autore"]

    /// What an `<a href>` to an author page holds (`/author/ann`, `?author=3`);
    /// `linksToAuthorPage` then checks the path segment precisely.
    static let authorLinkHrefs = ["/author", "author="]

    /// File extensions of audio and of video a link may point at directly.
    package static let audioFileExtensions = ["mp3", "m4a", "ogg", "oga", "opus", "wav", "aac", "flac"]
    package static let videoFileExtensions = ["mp4", "m4v", "webm", "mov", "ogv"]

    /// `class` or `id` words of areas that hold no part of the article,
    /// on pages that mark them by name rather than with `<aside>` or
    /// `<nav>`: related-post lists, comment threads, newsletter and cookie
    /// prompts, recommendation boxes. Not layout words such as "sidebar" or
    /// "widget": wrappers around the story carry them too (`has-sidebar`,
    /// `elementor-widget`). As a whole token ("comment" in `comment-list`,
    /// not in `commentary`):
    static let chromeAreaWords = ["comment", "popular", "promo", "sponsored"]
    /// … and beginning a token ("related" in `jp-relatedposts`).
    static let chromeAreaPrefixes = [
        "related", "comments", "recommend", "newsletter", "cookie", "consent", "trending", "disqus", "outbrain",
        "taboola",
    ]

    /// Attributes that templates put a date in on any element: epoch
    /// seconds or milliseconds (`data-timestamp="1615277700"`,
    /// `data-time`, `data-publish-time`), or a date string
    /// (`data-origindate`). Not `data-date`: calendars
    /// and event lists put any day there.
    static let dateAttributes = [
        "data-timestamp", "data-time", "data-origindate", "data-publish-time", "data-pubdate",
        "data-publish-date",
    ]

    /// `class` or `id` tokens that name an element holding the page's date
    /// (`<div class="date">`, `article-date`, `p.published`, `entry-date`):
    /// the scanner records such elements, `namesPageDate` reads them.
    static let pageDateWords = ["date", "pubdate", "published", "publishdate", "timestamp", "dateline", "posted"]

    /// What label runs start with (`BodyRecords.labels`): credit prefixes
    /// that rarely start prose, and the date labels `labelledDate` reads.
    /// Not "Di", "Av" or "文": too many sentences and words start so.
    static let runLabels = bylineRunLabels + dateRunLabels
    /// The credit prefixes among them, …
    package static let bylineRunLabels = ["by", "written by", "posted by", "par", "por", "von", "door", "作者", "著者"]
    /// … and the date labels.
    package static let dateRunLabels = publishedDateLabels + updatedDateLabels

    /// What the scanner should record from a page's body for these rules.
    public static let bodyRecords = BodyRecords(
        markers: bylineMarkers + bylineTokenMarkers,
        linkHrefs: authorLinkHrefs,
        linkPathEndings: (audioFileExtensions + videoFileExtensions).map { "." + $0 },
        apart: chromeLandmarks,
        areaWords: chromeAreaWords,
        areaPrefixes: chromeAreaPrefixes,
        dateAttributes: dateAttributes,
        dateWords: pageDateWords,
        labels: runLabels)
}
