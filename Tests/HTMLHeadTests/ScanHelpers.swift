import PureTestSupport
@testable import HTMLHead

/// Scans `bytes` fed in chunks of 1 to 40 bytes drawn from `generator`: the
/// network decides chunk boundaries, so no boundary may change the result.
func scanInRandomChunks(_ bytes: [UInt8], using generator: inout SeededGenerator) -> HeadDocument {
    let scanner = HeadScanner(contentType: nil)
    var offset = 0
    while offset < bytes.count {
        let length = Int.random(in: 1...40, using: &generator)
        scanner.feed(Array(bytes[offset..<min(offset + length, bytes.count)]))
        offset += length
    }
    return scanner.finish()
}

/// Scans `bytes` fed in chunks of `chunk` bytes (all at once by default).
func scan(_ bytes: [UInt8], contentType: String? = nil, chunk: Int? = nil, bodyRecords: BodyRecords = BodyRecords())
    -> HeadDocument
{
    let scanner = HeadScanner(contentType: contentType, bodyRecords: bodyRecords)
    let size = max(1, chunk ?? bytes.count)
    var offset = 0
    while offset < bytes.count {
        scanner.feed(Array(bytes[offset..<min(offset + size, bytes.count)]))
        offset += size
    }
    return scanner.finish()
}

func scan(_ html: String, contentType: String? = nil, chunk: Int? = nil, bodyRecords: BodyRecords = BodyRecords())
    -> HeadDocument
{
    scan(Array(html.utf8), contentType: contentType, chunk: chunk, bodyRecords: bodyRecords)
}

extension HeadDocument {
    /// The elements named `name`.
    func all(_ name: String) -> [HTMLElement] { elements.filter { $0.name == name } }

    /// The `content` of the first `<meta>` whose `property` or `name` is `key`.
    func meta(_ key: String) -> String? {
        elements.first { $0.name == "meta" && ($0["property"] == key || $0["name"] == key) }?["content"]
    }

    var title: String? { all("title").first?.text }
}
