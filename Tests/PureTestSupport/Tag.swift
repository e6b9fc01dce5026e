import HTMLHead

/// Small builders so each rule test reads like the HTML it stands for.
public enum Tag {
    public static func meta(property: String, _ content: String) -> HTMLElement {
        HTMLElement(name: "meta", attributes: ["property": property, "content": content])
    }

    public static func meta(name: String, _ content: String) -> HTMLElement {
        HTMLElement(name: "meta", attributes: ["name": name, "content": content])
    }

    public static func link(rel: String, _ href: String, sizes: String? = nil, type: String? = nil) -> HTMLElement {
        var attributes = ["rel": rel, "href": href]
        attributes["sizes"] = sizes
        attributes["type"] = type
        return HTMLElement(name: "link", attributes: attributes)
    }

    public static func title(_ text: String, inBody: Bool = false) -> HTMLElement {
        HTMLElement(name: "title", text: text, inBody: inBody)
    }

    public static func base(_ href: String) -> HTMLElement {
        HTMLElement(name: "base", attributes: ["href": href])
    }

    public static func jsonLD(_ text: String) -> HTMLElement {
        HTMLElement(name: "script", attributes: ["type": "application/ld+json"], text: text)
    }

    public static func itemprop(_ name: String, content: String? = nil, text: String? = nil, tag: String = "meta") -> HTMLElement {
        var attributes = ["itemprop": name]
        attributes["content"] = content
        return HTMLElement(name: tag, attributes: attributes, text: text)
    }
}
