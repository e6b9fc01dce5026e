import HTMLHead
import Metadata
@testable import Rules

let pageURL = "https://example.com/articles/one.html"

/// Runs the rules over `elements` as if they were a page at `url`.
func extract(_ elements: [HTMLElement], url: String = pageURL, lang: String? = nil, contentLanguage: String? = nil) -> LinkMetadata {
    MetadataRules.extract(from: HeadDocument(elements: elements, htmlLang: lang), pageURL: url, contentLanguage: contentLanguage)
}

/// Scans `html` as the engine does (the rules' own `BodyRecords`), fed in
/// chunks of `chunk` bytes (all at once by default), and runs the rules.
func extractHTML(_ html: String, url: String = pageURL, chunk: Int? = nil) -> LinkMetadata {
    let scanner = HeadScanner(contentType: "text/html; charset=utf-8", bodyRecords: MetadataRules.bodyRecords)
    let bytes = Array(html.utf8)
    let size = max(1, chunk ?? bytes.count)
    var offset = 0
    while offset < bytes.count {
        scanner.feed(Array(bytes[offset..<min(offset + size, bytes.count)]))
        offset += size
    }
    return MetadataRules.extract(from: scanner.finish(), pageURL: url)
}
