import HTMLHead
import Metadata
@testable import Rules

let pageURL = "https://example.com/articles/one.html"

/// Runs the rules over `elements` as if they were a page at `url`.
func extract(_ elements: [HTMLElement], url: String = pageURL, lang: String? = nil, contentLanguage: String? = nil) -> LinkMetadata {
    MetadataRules.extract(from: HeadDocument(elements: elements, htmlLang: lang), pageURL: url, contentLanguage: contentLanguage)
}
