#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTMLHead
import TextTrimming

extension HeadDocument {
    /// The fields the page declares so far, for the fetch's stop rule: a
    /// quick look at the tags, not the full rules. `isComplete` says the
    /// main fields are there (and for an article, `og:type` article,
    /// `article:*` metas, a JSON-LD Article or BlogPosting, its author,
    /// published time, site name and any video or audio too); `isEverything`
    /// that every field the rules could still find further down is there.
    ///
    /// Bylines, `<time>` elements, microdata and JSON-LD often sit 1–60 KiB
    /// into the body; the fetch reads on to the read budget (head +
    /// `bodyScanBytes`) unless `isEverything`, and past `holdsBody` it parses
    /// the body only once the body shows such signs (`BodyEvidence`).
    ///
    /// Every element is looked at: an `og:type` of article late in the head
    /// asks for more than the fields before it gave.
    ///
    /// It runs whenever the scanner recorded something new once the head is
    /// complete, on the curl thread, so it must stay cheap. It only decides
    /// when to stop reading; the rules still choose the values. Body
    /// fallbacks (`HTMLElement.isFallback`) do not count.
    var declaredFields: DeclaredFields {
        elements.reduce(into: DeclaredFields()) { $0.formUnion(DeclaredFields.declared(by: $1)) }
    }
}

/// `declaredFields` kept up to date as a document grows, looking at each
/// new element once (`PageConsumer` asks after every chunk): a `<meta>` or
/// `<link>` declares what it declares for good (its attributes are final);
/// a `<title>` or `<script>` is looked at again each time, because its text
/// grows while the element is open.
struct DeclaredFieldsTally {
    /// What the elements with final attributes declared.
    private var settled = DeclaredFields()
    /// The elements whose text may still grow: where each is, how long its
    /// text was when last looked at, and what it declared then.
    private var textual: [(index: Int, length: Int, fields: DeclaredFields)] = []
    private var seen = 0

    mutating func update(_ document: HeadDocument) -> DeclaredFields {
        let elements = document.elements
        if elements.count < seen { self = DeclaredFieldsTally() }
        for index in seen..<elements.count {
            switch elements[index].name {
            case "title", "script": textual.append((index, -1, []))
            default: settled.formUnion(DeclaredFields.declared(by: elements[index]))
            }
        }
        seen = elements.count
        var fields = settled
        for position in textual.indices {
            // A text only grows, so one of the same length is the same text
            // (but for a character cut at the end, shown as U+FFFD: not part
            // of any ASCII key), and declares the same: a JSON-LD block is
            // searched again only when more of it arrived.
            let element = elements[textual[position].index]
            let length = element.text?.utf8.count ?? 0
            if length != textual[position].length {
                textual[position].length = length
                textual[position].fields = DeclaredFields.declared(by: element)
            }
            fields.formUnion(textual[position].fields)
        }
        return fields
    }
}

/// The fields `declaredFields` looks for, as flags.
struct DeclaredFields: OptionSet {
    let rawValue: Int

    static let title = DeclaredFields(rawValue: 1 << 0)
    static let summary = DeclaredFields(rawValue: 1 << 1)
    static let image = DeclaredFields(rawValue: 1 << 2)
    static let siteName = DeclaredFields(rawValue: 1 << 3)
    static let article = DeclaredFields(rawValue: 1 << 4)
    static let author = DeclaredFields(rawValue: 1 << 5)
    static let published = DeclaredFields(rawValue: 1 << 6)
    static let media = DeclaredFields(rawValue: 1 << 7)

    /// What every page needs before the reading may stop.
    static let main: DeclaredFields = [.title, .summary, .image]
    /// What an article needs besides: its byline, date, publisher and any
    /// player sit in the body as often as in the head.
    static let articleFields: DeclaredFields = [.author, .published, .siteName, .media]

    /// The main fields are declared, and for an article its own fields too:
    /// what the head must give before the body is no longer parsed blindly.
    var isComplete: Bool {
        guard isSuperset(of: .main) else { return false }
        return !contains(.article) || isSuperset(of: DeclaredFields.articleFields)
    }

    /// Every field the rules could still find in the body.
    static let everything: DeclaredFields = main.union(articleFields)

    /// Nothing the rules could still use is missing: the reading may stop.
    var isEverything: Bool { isSuperset(of: Self.everything) }

    /// What a card shows of a page, besides its site name and player: its
    /// title, summary, image, author and published time.
    static let card: DeclaredFields = main.union([.author, .published])

    /// The body is no longer parsed blindly: the main fields are declared
    /// (`isComplete`), or the head answered the card but for a player or
    /// a site name (an article's). What the body could still add then is
    /// mostly a player, which shows in its raw bytes (`BodyEvidence`).
    var holdsBody: Bool { isComplete || isSuperset(of: Self.card) }

    /// What one element declares (nothing for a body fallback).
    static func declared(by element: HTMLElement) -> DeclaredFields {
        guard !element.isFallback else { return [] }
        var found = DeclaredFields()
        switch element.name {
        case "title":
            if hasText(element.text) { found.insert(.title) }
        case "meta":
            guard let content = element["content"], hasText(content) else { break }
            for key in [element["property"], element["name"]] {
                guard let key else { continue }
                // Keys are mostly written in lowercase: lowercase only the others.
                let lower = key.utf8.contains(where: ASCIIByte.isUppercase) ? key.lowercased() : key
                found.formUnion(declared(byMeta: lower, content: content))
            }
        case "link":
            if element["rel"]?.lowercased() == "image_src", element["href"] != nil { found.insert(.image) }
        case "script":
            found.formUnion(declared(byJSONLD: element.text ?? ""))
        default:
            break
        }
        return found
    }

    /// True when `text` has a byte other than ASCII white space.
    static func hasText(_ text: String?) -> Bool {
        text?.utf8.contains { $0 != 0x20 && !(0x09...0x0D).contains($0) } ?? false
    }

    /// What one `<meta>` key declares. An author given as a URL (a profile
    /// page, as `article:author` often is) names nobody: the byline still counts.
    static func declared(byMeta key: String, content: String) -> DeclaredFields {
        var found = metaKeys[key] ?? []
        if key == "og:type", !content.lowercased().contains("article") { found.remove(.article) }
        if found.contains(.author), MetadataRules.looksLikeURL(content.trimmedWhitespace) { found.remove(.author) }
        if key.hasPrefix("article:") { found.insert(.article) }
        return found
    }

    /// What each `<meta>` key declares, looked up once per meta (a `switch`
    /// over strings compared the key with each case in turn). `og:type`
    /// declares an article only when its content says so, an author key an
    /// author only when its content is not a URL (`declared(byMeta:content:)`).
    private static let metaKeys: [String: DeclaredFields] = {
        var table: [String: DeclaredFields] = [:]
        func add(_ keys: [String], _ field: DeclaredFields) {
            for key in keys { table[key, default: []].formUnion(field) }
        }
        add(["og:title", "twitter:title"], .title)
        add(["og:description", "twitter:description", "description"], .summary)
        add(["og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src"], .image)
        add(["og:site_name", "application-name", "apple-mobile-web-app-title", "publisher", "dc.publisher",
             "dcterms.publisher"], .siteName)
        add(["og:video", "og:video:url", "og:video:secure_url", "og:audio", "og:audio:url", "og:audio:secure_url",
             "twitter:player", "twitter:player:stream"], .media)
        add(["og:type"], .article)
        add(["author", "article:author", "dc.creator", "parsely-author", "sailthru.author"], .author)
        add(MetadataRules.publishedTimeKeys, .published)
        return table
    }()

    /// What a JSON-LD block declares, by its keys and types as written (a
    /// search of its bytes, not a parse: the rules parse it once at the end).
    /// The keys are looked for right after each `"` (found with `memchr`),
    /// and types ending in `Article` right before one, so each block is
    /// walked once; `String.contains`, thirteen times over each block by
    /// Characters, was 13% of a fetch's CPU on heads with a few KB of JSON-LD.
    static func declared(byJSONLD text: String) -> DeclaredFields {
        var text = text
        return text.withUTF8 { declared(byJSONLD: UnsafeRawBufferPointer($0)) }
    }

    /// `declared(byJSONLD:)` on the block's UTF-8.
    static func declared(byJSONLD bytes: UnsafeRawBufferPointer) -> DeclaredFields {
        var found: DeclaredFields = []
        guard let base = bytes.baseAddress else { return found }
        let article = Array("Article".utf8)
        var quote = 0
        while quote < bytes.count, let hit = memchr(base + quote, Int32(UInt8(ascii: "\"")), bytes.count - quote) {
            quote = base.distance(to: UnsafeRawPointer(hit))
            // Most quotes open or close a value no key or type starts or
            // ends: one byte on each side rules them out.
            if quote >= article.count, bytes[quote - 1] == UInt8(ascii: "e"),
                bytes[(quote - article.count)..<quote].elementsEqual(article) {
                found.insert(.article)
            }
            if quote + 1 < bytes.count, jsonLDKeyStarts[Int(bytes[quote + 1])] {
                let after = bytes[(quote + 1)...]
                for (key, field) in jsonLDKeys where after.starts(with: key) { found.insert(field) }
            }
            quote += 1
        }
        return found
    }

    /// Whether a byte begins one of `jsonLDKeys`, by byte value.
    private static let jsonLDKeyStarts: [Bool] = {
        var starts = [Bool](repeating: false, count: 256)
        for (key, _) in jsonLDKeys { if let first = key.first { starts[Int(first)] = true } }
        return starts
    }()

    /// The JSON-LD keys and types (each with its closing quote) a block is
    /// searched for after an opening quote, and what each declares.
    private static let jsonLDKeys: [(key: [UInt8], field: DeclaredFields)] = {
        let keys: [(String, DeclaredFields)] = [
            ("publisher", .siteName), ("WebSite", .siteName), ("BlogPosting", .article), ("Report", .article),
            ("author", .author), ("creator", .author), ("datePublished", .published), ("headline", .title),
            ("description", .summary), ("image", .image), ("thumbnailUrl", .image),
        ]
        return keys.map { (Array(($0.0 + "\"").utf8), $0.1) }
    }()
}
