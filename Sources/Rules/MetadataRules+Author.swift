import FoundationEssentials

/// What may stand as an author, and how several are written.
extension MetadataRules {
    /// Words that sites put in the author field instead of a person's name.
    static let placeholderAuthors: Set<String> = ["admin", "administrator", "webmaster", "editor", "staff writer", "guest"]

    /// False for values that name no author: the site's own name, a URL, a
    /// placeholder account ("Admin"), or a date ("2024-05-01", "May 3, 2016").
    static func isPlausibleAuthor(_ name: String, siteNames: [String]) -> Bool {
        let lower = name.lowercased()
        if looksLikeURL(name) || placeholderAuthors.contains(lower) || looksLikeDate(name) { return false }
        let folded = foldedName(name)
        return !siteNames.contains { !folded.isEmpty && foldedName($0) == folded }
    }

    /// The names the page gives its site, to keep them out of the author field.
    static func declaredSiteNames(in page: PageIndex) -> [String] {
        var names = ["og:site_name", "application-name", "publisher", "twitter:site"].compactMap { page.metaText([$0])?.value }
        for node in page.jsonLD.contentNodes { names += page.jsonLD.names(node["publisher"]) }
        return names
    }

    /// A date or time rather than a name: mostly digits and date punctuation,
    /// or a month name with a year ("May 3, 2016").
    static func looksLikeDate(_ text: String) -> Bool {
        let (digits, letters) = ASCIIText.digitsAndLetters(text)
            ?? (text.filter(\.isASCIIDigit).count, text.filter(\.isLetter).count)
        if digits >= 4 && letters <= 3 { return true }
        guard hasYear(text) else { return false }
        let words = text.lowercased().split { !$0.isLetter }
        return words.contains { word in MonthNames.abbreviated.contains { word.hasPrefix($0) } && word.count <= 9 }
            && words.count <= 4
    }

    /// Letters and digits only, lowercased: "The Verge" and "theverge"
    /// agree. ASCII is folded byte by byte; other scalars by their properties.
    static func foldedName(_ text: String) -> String {
        if let folded = ASCIIText.foldedAlphanumerics(text) { return folded }
        var output = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                    output.append(scalar)
                } else if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) {
                    output.append(Unicode.Scalar(byte | 0x20))
                }
            } else if scalar.properties.isAlphabetic {
                output.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(output)
    }

    /// The handle in `twitter:creator` ("@ann" → "ann"): the page's author
    /// as the page names them for sharing, the weakest source of the field.
    static func twitterCreator(in page: PageIndex) -> Picked<String>? {
        guard let handle = page.metaText(["twitter:creator"])?.value else { return nil }
        let name = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        guard !name.isEmpty, !name.contains(" "), !looksLikeURL(name) else { return nil }
        return Picked(value: name, source: "twitter:creator")
    }
}
