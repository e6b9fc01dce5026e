import HTMLHead

extension HeadDocument {
    /// True when the page already declares a title, a summary and an image:
    /// the fields a preview needs, so reading further cannot improve it.
    ///
    /// A quick look at the tags, not the full rules: it runs after every
    /// chunk once the head is complete, on the curl thread, so it must stay
    /// cheap. It only decides when to stop reading; the rules still choose
    /// the values. Body fallbacks (`HTMLElement.isFallback`) do not count.
    var hasMainFields: Bool {
        var title = false, summary = false, image = false
        for element in elements where !element.isFallback {
            switch element.name {
            case "title":
                title = title || !(element.text ?? "").allSatisfy(\.isWhitespace)
            case "meta":
                guard let content = element["content"], !content.allSatisfy(\.isWhitespace),
                    let key = (element["property"] ?? element["name"])?.lowercased()
                else { continue }
                switch key {
                case "og:title", "twitter:title": title = true
                case "og:description", "twitter:description", "description": summary = true
                case "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src":
                    image = true
                default: break
                }
            case "link":
                if element["rel"]?.lowercased() == "image_src", element["href"] != nil { image = true }
            default:
                break
            }
            if title && summary && image { return true }
        }
        return false
    }
}
