import HTMLHead
@testable import LinkPeek

/// Small builders so each rule test reads like the HTML it stands for.
enum Tag {
    static func meta(property: String, _ content: String) -> HTMLElement {
        HTMLElement(name: "meta", attributes: ["property": property, "content": content])
    }

    static func meta(name: String, _ content: String) -> HTMLElement {
        HTMLElement(name: "meta", attributes: ["name": name, "content": content])
    }

    static func link(rel: String, _ href: String, sizes: String? = nil, type: String? = nil) -> HTMLElement {
        var attributes = ["rel": rel, "href": href]
        attributes["sizes"] = sizes
        attributes["type"] = type
        return HTMLElement(name: "link", attributes: attributes)
    }

    static func title(_ text: String, inBody: Bool = false) -> HTMLElement {
        HTMLElement(name: "title", text: text, inBody: inBody)
    }

    static func base(_ href: String) -> HTMLElement {
        HTMLElement(name: "base", attributes: ["href": href])
    }

    static func jsonLD(_ text: String) -> HTMLElement {
        HTMLElement(name: "script", attributes: ["type": "application/ld+json"], text: text)
    }

    static func itemprop(_ name: String, content: String? = nil, text: String? = nil, tag: String = "meta") -> HTMLElement {
        var attributes = ["itemprop": name]
        attributes["content"] = content
        return HTMLElement(name: tag, attributes: attributes, text: text)
    }
}

let pageURL = "https://example.com/articles/one.html"

/// Runs the rules over `elements` as if they were a page at `url`.
func extract(_ elements: [HTMLElement], url: String = pageURL, lang: String? = nil, contentLanguage: String? = nil) -> LinkMetadata {
    MetadataRules.extract(from: HeadDocument(elements: elements, htmlLang: lang), pageURL: url, contentLanguage: contentLanguage)
}
