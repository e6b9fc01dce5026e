internal import CLibXML2
#if canImport(Glibc)
import Glibc
#endif
import Metadata

/// arXiv's export API (Atom, read with libxml2) for papers:
/// `arxiv.org/abs/ID` and `arxiv.org/pdf/ID`, new (`2301.01234v2`) and old
/// (`hep-th/9901001`) identifiers. Every author is kept, in order.
public struct ArxivEngine: SiteEngine {
    public let name = "arxiv"
    public let shapes = ["arxiv.org/abs/ID", "arxiv.org/pdf/ID", "arxiv.org/abs/ARCHIVE/NUMBER (old identifiers)"]
    public static let apiHost = "export.arxiv.org"

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        guard url.host == "arxiv.org" || url.host == "www.arxiv.org", url.segments.count == 2 || url.segments.count == 3,
            url.segments[0] == "abs" || url.segments[0] == "pdf"
        else { return nil }
        var id = url.segments.dropFirst().joined(separator: "/")
        if id.hasSuffix(".pdf") { id = String(id.dropLast(4)) }
        guard url.segments.dropFirst().allSatisfy(SiteURL.isName), !id.isEmpty else { return nil }
        var request = SiteRequest(engine: name, url: "https://\(Self.apiHost)/api/query?id_list=\(id)", kind: "paper")
        request.headers = ["Accept: application/atom+xml"]
        return request
    }

    public func read(bytes: [UInt8], for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard let entry = AtomEntry.first(in: bytes), let title = entry.text["title"],
            title != "Error", entry.text["id"] != nil
        else { return nil }
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        metadata.siteName = "arXiv"
        metadata.title = title
        metadata.summary = SiteText.summary(entry.text["summary"])
        metadata.publishedTime = entry.text["published"]
        var site = SiteInfo(engine: name, kind: "paper")
        site.authors = entry.authors.isEmpty ? nil : entry.authors
        metadata.author = site.authors?.joined(separator: ", ")
        site.category = entry.category
        site.createdAt = entry.text["published"]
        site.updatedAt = entry.text["updated"]
        site.pdf = entry.pdf
        metadata.site = site
        return SiteReading(metadata: metadata)
    }
}

/// The first `<entry>` of an Atom feed: its text children (white space
/// made single spaces), authors' names in order, `arxiv:primary_category`'s
/// term and the link titled `pdf`. The document is parsed without the
/// network and without entity expansion.
struct AtomEntry {
    var text: [String: String] = [:]
    var authors: [String] = []
    var category: String?
    var pdf: String?

    static func first(in bytes: [UInt8]) -> AtomEntry? {
        guard !bytes.isEmpty, let count = Int32(exactly: bytes.count) else { return nil }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, count, "answer.xml", "UTF-8", options)
                }
            }
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), name(of: root) == "feed" else { return nil }
        guard let entry = children(of: root).first(where: { name(of: $0) == "entry" }) else { return nil }
        var out = AtomEntry()
        for child in children(of: entry) {
            switch name(of: child) {
            case "author":
                if let nameNode = children(of: child).first(where: { name(of: $0) == "name" }),
                    let text = content(of: nameNode)
                {
                    out.authors.append(text)
                }
            case "primary_category":
                out.category = attribute(child, "term")
            case "link":
                if attribute(child, "title") == "pdf", let href = attribute(child, "href"), href.hasPrefix("http") {
                    out.pdf = href
                }
            case let element?:
                if out.text[element] == nil, let text = content(of: child) { out.text[element] = text }
            case nil:
                break
            }
        }
        return out
    }

    private static func children(of node: xmlNodePtr) -> [xmlNodePtr] {
        var nodes: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { nodes.append(current) }
            child = current.pointee.next
        }
        return nodes
    }

    private static func name(of node: xmlNodePtr) -> String? {
        node.pointee.name.map { String(cString: $0) }
    }

    private static func content(of node: xmlNodePtr) -> String? {
        guard let raw = xmlNodeGetContent(node) else { return nil }
        defer { free(raw) }  // libxml2's `xmlFree` is `free` (linkpeek sets no allocator), and a global var to Swift 6.
        let words = String(cString: raw).split(whereSeparator: { $0.isWhitespace })
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    private static func attribute(_ node: xmlNodePtr, _ key: String) -> String? {
        guard let raw = xmlGetProp(node, key) else { return nil }
        defer { free(raw) }  // libxml2's `xmlFree` is `free` (linkpeek sets no allocator), and a global var to Swift 6.
        return String(cString: raw)
    }
}
