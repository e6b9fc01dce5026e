import Testing

@testable import HTMLHead

/// Elements keep their attributes in order, the first of a repeated name
/// winning, and answer lookups the same way however many they have.
@Suite struct HTMLElementTests {
    @Test func theFirstOfARepeatedNameWinsWithFewAndWithManyAttributes() {
        for count in [1, 15, 16, 17, 200, 300] {
            let filler = (0..<count).map { "a\($0)=\"v\($0)\"" }.joined(separator: " ")
            let html = "<head><meta name=first content=c \(filler) NAME=second></head>"
            for chunk in [nil, 3] {
                let meta = scan(html, chunk: chunk).all("meta").first
                #expect(meta?["name"] == "first", "\(count) attributes, chunk \(String(describing: chunk))")
                #expect(meta?["content"] == "c")
                #expect(meta?["a0"] == "v0")
                #expect(meta?["missing"] == nil)
                // The gate keeps at most `attributeLimit` of a tag's attributes.
                #expect(meta?.attributeList.count == min(count + 2, TagGate.attributeLimit))
            }
        }
    }

    @Test func equalityAndTheDictionaryViewIgnoreOrder() {
        var element = HTMLElement(name: "meta", attributes: ["name": "a", "content": "b"])
        let scanned = scan("<head><meta content=b name=a></head>").all("meta").first
        #expect(scanned == element)
        #expect(scanned?.attributes == ["name": "a", "content": "b"])
        element.attributes["content"] = "c"
        #expect(element["content"] == "c")
        #expect(element != scanned)
        let many = Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", "\($0)") })
        #expect(HTMLElement(name: "x", attributes: many)["k39"] == "39")
    }
}
