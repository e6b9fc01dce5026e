import PureTestSupport
import Testing
@testable import HTMLHead

/// Random nestings of landmark elements, checked against a plain model: the
/// landmarks each marked `<span itemprop>` (recorded without a cap of its
/// kind) sits in are worked out here from the stack of
/// elements the generator opened (a different way from the tracker's depths),
/// and the scanner must agree, fed whole and cut at random places.
@Suite struct BodyContextRandomTests {
    private typealias Landmarks = BodyContext.Landmarks

    /// Elements the generator opens: a tag and the `role` it may carry.
    private static let openers: [(tag: String, role: String?)] = [
        ("nav", nil), ("aside", nil), ("article", nil), ("header", nil), ("footer", nil), ("main", nil),
        ("form", nil), ("div", nil), ("section", nil), ("div", "navigation"), ("div", "complementary"),
        ("div", "contentinfo"), ("div", "banner"), ("div", "main"), ("section", "article"),
    ]

    /// The landmarks of an element inside `stack` (outermost first), given
    /// which opened element (by its serial number) was the first article.
    private static func model(_ stack: [(tag: String, role: String?, serial: Int)], firstArticle: Int?) -> Landmarks {
        var result: Landmarks = []
        for (index, element) in stack.enumerated() {
            let outer = stack[..<index]
            let isArticle = element.tag == "article" || element.role == "article"
            let inArticleOrMain = outer.contains { $0.tag == "article" || $0.tag == "main" || $0.role == "article" || $0.role == "main" }
            if isArticle {
                result.insert(.article)
                if outer.contains(where: { $0.tag == "article" || $0.role == "article" }) { result.insert(.nestedArticle) }
                if element.serial == firstArticle { result.insert(.firstArticle) }
            }
            if element.tag == "main" || element.role == "main" { result.insert(.main) }
            if element.tag == "header" { result.insert(inArticleOrMain ? .articleHeader : .header) }
            if element.tag == "footer" { result.insert(inArticleOrMain ? .articleFooter : .footer) }
            if element.tag == "nav" || element.role == "navigation" { result.insert(.nav) }
            if element.tag == "aside" || element.role == "complementary" { result.insert(.aside) }
            if element.tag == "form" { result.insert(.form) }
            if element.role == "contentinfo" { result.insert(.footer) }
            if element.role == "banner" { result.insert(.header) }
        }
        return result
    }

    @Test func randomNestingsMatchTheModel() {
        let seed = SeededGenerator.seed(default: 0xB0D1)
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<40 {
            var html = "<html><head><title>t</title></head><body>"
            var stack: [(tag: String, role: String?, serial: Int)] = []
            var expected: [String: Landmarks] = [:]
            var firstArticle: Int?
            for serial in 0..<Int.random(in: 10...80, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where stack.count < 20:
                    let opener = Self.openers[Int.random(in: 0..<Self.openers.count, using: &generator)]
                    // HTML has no form inside a form: libxml2 drops the inner one.
                    guard opener.tag != "form" || !stack.contains(where: { $0.tag == "form" }) else { continue }
                    if firstArticle == nil, opener.tag == "article" || opener.role == "article" { firstArticle = serial }
                    stack.append((opener.tag, opener.role, serial))
                    html += "<\(opener.tag)" + (opener.role.map { " role=\($0)" } ?? "") + ">"
                case 1 where !stack.isEmpty:
                    html += "</\(stack.removeLast().tag)>"
                default:
                    expected["t\(serial)"] = Self.model(stack, firstArticle: firstArticle)
                    html += "<span itemprop=t\(serial)>x</span>"
                }
            }
            let whole = scan(html)
            var found: [String: Landmarks] = [:]
            for mark in whole.all("span") { found[mark["itemprop"] ?? ""] = mark.context.landmarks }
            #expect(found == expected, "seed \(seed): \(html)")
            #expect(scanInRandomChunks(Array(html.utf8), using: &generator).elements == whole.elements, "seed \(seed): \(html)")
            if found != expected { return }
        }
    }
}
