import FoundationEssentials
import Metadata
import TextTrimming

/// One icon the page declares with `<link rel=…>`.
struct IconCandidate {
    var resource: MediaResource
    var rel: IconRel
    /// The largest side the page declares in `sizes` (nil: not declared; `any` counts as large).
    var declaredSize: Int?
    var order: Int
    /// An inline `data:` icon: used only when no web icon exists.
    var isData = false

    /// The size the choice compares: declared, else what the rel implies.
    var effectiveSize: Int { declaredSize ?? rel.impliedSize }
}

/// The kinds of `<link rel>` icon, worst to best for a preview.
enum IconRel: Int, Comparable {
    /// Safari's pinned-tab mask: a monochrome SVG shape, never a good preview icon.
    case maskIcon
    /// `<meta name=msapplication-TileImage>`: a Windows tile, often a white
    /// glyph made for a coloured tile, so just above a mask icon.
    case tileImage
    case shortcutIcon
    /// Fluid's site-specific-browser icon: large, made for a dock.
    case fluidIcon
    case icon
    case appleTouchIcon

    /// `<link rel=icon href="data:,">`: the page says it has no icon (and
    /// asks browsers not to request `/favicon.ico`).
    static let noIconHref = "data:,"

    var source: String {
        switch self {
        case .maskIcon: "link:mask-icon"
        case .tileImage: "msapplication-tileimage"
        case .shortcutIcon: "link:shortcut icon"
        case .icon: "link:icon"
        case .appleTouchIcon: "link:apple-touch-icon"
        case .fluidIcon: "link:fluid-icon"
        }
    }

    /// The size to assume when `sizes` is missing. A touch icon without
    /// `sizes` is the legacy default, 57 px on the first iPhone, so any
    /// declared touch size above that wins, yet it still beats a favicon
    /// (usually 16–32 px). Fluid icons are dock icons, at least 128 px.
    var impliedSize: Int {
        switch self {
        case .appleTouchIcon: 57
        case .fluidIcon: 128
        case .icon, .shortcutIcon: 32
        case .maskIcon, .tileImage: 0
        }
    }

    init?(rels: [String]) {
        if rels.contains("apple-touch-icon") || rels.contains("apple-touch-icon-precomposed") {
            self = .appleTouchIcon
        } else if rels.contains("mask-icon") {
            self = .maskIcon
        } else if rels.contains("fluid-icon") {
            self = .fluidIcon
        } else if rels.contains("icon") {
            self = rels.contains("shortcut") ? .shortcutIcon : .icon
        } else {
            return nil
        }
    }

    static func < (lhs: IconRel, rhs: IconRel) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension MetadataRules {
    /// Every declared icon in page order, deduplicated by URL.
    static func iconCandidates(in page: PageIndex) -> [IconCandidate] {
        var seen: Set<String> = []
        var icons: [IconCandidate] = []
        for link in page.links {
            guard let rel = IconRel(rels: link.rels),
                  let resolved = page.resolver.resolve(link.element["href"]) else { continue }
            // `href="data:,"` is the common way to say "no icon, do not request /favicon.ico".
            let saysNoIcon = resolved.kind == .data && resolved.url.count <= IconRel.noIconHref.count
            guard !saysNoIcon, seen.insert(resolved.url).inserted else { continue }
            let size = declaredSize(link.element["sizes"])
            let resource = MediaResource(
                url: resolved.url,
                type: link.element["type"].map { $0.trimmedSpaces.lowercased() }.flatMap { $0.isEmpty ? nil : $0 },
                width: size == Int.max ? nil : size,
                height: size == Int.max ? nil : size
            )
            icons.append(IconCandidate(resource: resource, rel: rel, declaredSize: size, order: link.order,
                                       isData: resolved.kind == .data))
        }
        for meta in page.metaValues("msapplication-tileimage") {
            guard let url = page.resolver.resolveWeb(meta.content), seen.insert(url).inserted else { continue }
            icons.append(IconCandidate(resource: MediaResource(url: url), rel: .tileImage, declaredSize: nil, order: meta.order))
        }
        return icons
    }

    /// The icon a preview should show: a web icon before a `data:` one;
    /// never a mask icon or tile image while another exists; then the largest
    /// (declared or implied) size, so a touch icon beats a 16 px favicon;
    /// then the better rel; then page order.
    static func bestIcon(_ icons: [IconCandidate]) -> IconCandidate? {
        func key(_ icon: IconCandidate) -> (Int, Int, Int, IconRel, Int) {
            let weak = icon.rel == .maskIcon || icon.rel == .tileImage
            return (icon.isData ? 0 : 1, weak ? 0 : 1, icon.effectiveSize, icon.rel, -icon.order)
        }
        return icons.max { key($0) < key($1) }
    }

    /// The largest side in a `sizes` attribute ("16x16 32x32", "any").
    /// `any` (scalable SVG) is read as `Int.max`: it renders at every size.
    static func declaredSize(_ sizes: String?) -> Int? {
        guard let sizes else { return nil }
        var best: Int?
        let lower = sizes.lowercased()
        if ASCIIText.isASCII(lower) {
            // The same tokens and sides, cut on the bytes ("×" is not ASCII).
            for token in lower.utf8.split(whereSeparator: WhiteSpaceByte.isWhitespace) {
                if token.elementsEqual("any".utf8) { return Int.max }
                let sides = token.split(separator: UInt8(ascii: "x")).compactMap { Int(Substring($0)) }
                if let side = sides.max(), side > 0 { best = max(best ?? 0, side) }
            }
            return best
        }
        for token in lower.split(whereSeparator: \.isWhitespace) {
            if token == "any" { return Int.max }
            // Pages write "144×144" (a multiplication sign) where the spec says
            // "x"; the intent is plain, so accept it.
            let sides = token.split(whereSeparator: { $0 == "x" || $0 == "×" }).compactMap { Int($0) }
            if let side = sides.max(), side > 0 { best = max(best ?? 0, side) }
        }
        return best
    }
}
