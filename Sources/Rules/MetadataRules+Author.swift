import FoundationEssentials
import JSON
import TextTrimming

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

extension MetadataRules {
    /// The names a JSON-LD `author` (or `creator`) credits, people first:
    /// an Organization listed beside a Person (`[{"@type":
    /// "Organization", …}, {"@type": "Person", …}]`, also through `@id`
    /// references into `@graph`) is the publisher credited with the
    /// writer, not a second author. Organisations alone are kept, marked
    /// `organisationsOnly`: a visible byline that names a person wins over
    /// them, as over a desk's credit.
    static func jsonLDCredits(_ value: JSONValue?, in graph: JSONLDGraph) -> (names: [String], organisationsOnly: Bool) {
        let elements: [JSONValue]
        switch value {
        case .array(let array)?: elements = array
        case let value?: elements = [value]
        case nil: return ([], false)
        }
        var people: [String] = [], organisations: [String] = []
        for element in elements {
            if case .object(let node) = element, isOrganisation(graph.dereference(node)) {
                organisations += graph.names(element)
            } else {
                people += graph.names(element)
            }
        }
        return people.isEmpty ? (organisations, !organisations.isEmpty) : (people, false)
    }

    /// A node typed as an organisation (`Organization`,
    /// `NewsMediaOrganization`, `Corporation` …), not a person.
    static func isOrganisation(_ node: JSONLDGraph.Node) -> Bool {
        JSONLDGraph.types(of: node).contains { $0.hasSuffix("organization") || $0 == "corporation" }
    }
}

extension MetadataRules {
    /// A declared credit without the site's name the template glued to it
    /// ("Jane Doe - Acme News", "Jane Doe | Acme News", or "Acme News" as a
    /// second name after a comma), when a person is left: the site is the
    /// publisher, not an author. `siteNames` are the names the page
    /// declares for its site.
    static func withoutSiteCredit(_ names: [String], siteNames: [String]) -> [String] {
        let sites = Set(siteNames.map(foldedName).filter { !$0.isEmpty })
        guard !sites.isEmpty else { return names }
        let cut = names.map { name -> String in
            for separator in [" - ", " – ", " — ", " | "] {
                guard let range = name.ranges(of: separator).last else { continue }
                let rest = String(name[..<range.lowerBound]).trimmedSpaces
                if !rest.isEmpty, sites.contains(foldedName(String(name[range.upperBound...]))) { return rest }
            }
            return name
        }
        let people = cut.filter { !sites.contains(foldedName($0)) }
        return people.isEmpty ? names : people
    }
}
