import FoundationEssentials
import Metadata
import TextTrimming

/// One image, video or audio the page offers, before the rules choose.
struct MediaCandidate {
    var resource: MediaResource
    /// The tag or rule that gave the URL, e.g. "og:image:secure_url".
    var source: String
    /// Position in the document, for the page-order lists.
    var order: Int
    /// A `data:` URL: used only when nothing else exists.
    var isData = false

    /// The `order` of a candidate with no document position of its own
    /// (JSON-LD): after every element of the page in the page-order lists,
    /// with room to spare below `Int.max`.
    static let afterThePage = Int.max / 2
}

extension MetadataRules {
    /// The structured properties of Open Graph (`og:image`, `og:image:url`,
    /// `og:image:secure_url`, `og:image:type`, …) and their Twitter
    /// counterparts, grouped: each bare tag starts a new item and the
    /// properties after it attach to it.
    ///
    /// `og:image:url`/`secure_url` attach to the current item while it lacks
    /// that slot, else they start a new one (pages that write only
    /// `og:image:url` still list several images). Within an item,
    /// `secure_url` beats `url` beats the bare tag.
    static func structuredMedia(prefix: String, in page: PageIndex) -> [MediaCandidate] {
        var groups: [StructuredGroup] = []
        let propertyPrefix = prefix + ":"  // once, not per meta and key
        for meta in page.metas {
            // Keys whose bytes do not start with the prefix's are neither it
            // nor its properties (its letters have no canonical twins): most
            // metas go without a `Character` comparison.
            guard let key = meta.keys.first(where: {
                ASCIIText.startsWithBytes($0, prefix) && ($0 == prefix || $0.hasPrefix(propertyPrefix))
            }) else { continue }
            let value = meta.content.trimmedWhitespace
            guard !value.isEmpty else { continue }
            let property = key == prefix ? "" : String(key.dropFirst(prefix.count + 1))
            switch property {
            case "", "url", "src", "secure_url":
                // Twitter's legacy `twitter:image:src` means the same as the bare tag.
                let slot = property == "src" ? "" : property
                if let last = groups.indices.last, slot != "", groups[last].urls[slot] == nil {
                    groups[last].urls[slot] = value
                } else {
                    groups.append(StructuredGroup(urls: [slot: value], order: meta.order))
                }
            case "type", "content_type", "width", "height", "alt":
                guard let last = groups.indices.last, groups[last].details[property] == nil else { continue }
                groups[last].details[property] = value
            default:
                continue
            }
        }
        return groups.compactMap { $0.candidate(prefix: prefix, resolver: page.resolver) }
    }

    /// Candidates from plain URL strings (JSON-LD, microdata, `<link>`).
    static func plainMedia(_ hrefs: [String], source: String, order: Int, type: String? = nil, resolver: URLResolver) -> [MediaCandidate] {
        hrefs.compactMap { href in
            guard let resolved = resolver.resolve(href) else { return nil }
            return MediaCandidate(resource: MediaResource(url: resolved.url, type: type), source: source,
                                  order: order, isData: resolved.kind == .data)
        }
    }

    /// The best candidate: the first web URL in priority order, else the
    /// first `data:` URL (a placeholder beats nothing).
    static func best(_ candidates: [MediaCandidate]) -> MediaCandidate? {
        candidates.first { !$0.isData } ?? candidates.first
    }

    /// Every distinct web resource in page order (data URLs only when there is nothing else).
    static func pageOrdered(_ candidates: [MediaCandidate]) -> [MediaResource]? {
        let web = candidates.filter { !$0.isData }
        let pool = web.isEmpty ? candidates : web
        var seen: Set<String> = []
        let ordered = pool.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
            .map(\.element.resource)
            .filter { seen.insert($0.url).inserted }
        return ordered.isEmpty ? nil : ordered
    }
}

/// One structured Open Graph / Twitter media item while it is being read.
private struct StructuredGroup {
    /// URLs by slot: "" (the bare tag), "url", "secure_url".
    var urls: [String: String]
    /// "type", "width", "height", "alt".
    var details: [String: String] = [:]
    var order: Int

    func candidate(prefix: String, resolver: URLResolver) -> MediaCandidate? {
        var fallback: MediaCandidate?
        for slot in ["secure_url", "url", ""] {
            guard let href = urls[slot], let resolved = resolver.resolve(href) else { continue }
            let source = slot.isEmpty ? prefix : "\(prefix):\(slot)"
            let resource = MediaResource(
                url: resolved.url,
                type: (details["type"] ?? details["content_type"]).map { $0.lowercased() },
                width: MetadataRules.pixels(details["width"]),
                height: MetadataRules.pixels(details["height"]),
                alt: TextCleaner.clean(details["alt"])
            )
            let candidate = MediaCandidate(resource: resource, source: source, order: order, isData: resolved.kind == .data)
            if !candidate.isData { return candidate }
            fallback = fallback ?? candidate
        }
        return fallback
    }
}
