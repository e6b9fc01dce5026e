import Testing

@testable import Options

#if canImport(Glibc)
import Glibc
#endif

@Suite struct OptionsDocsTests {
    /// protocol/config.md holds the table `linkpeek config keys --markdown` prints.
    @Test func configPageHoldsTheGeneratedTable() throws {
        let root = String(#filePath.split(separator: "/Tests/OptionsTests/").first ?? "")
        let page = try #require(Self.read(root + "/protocol/config.md"))
        let begin = "<!-- keys:begin -->\n"
        let end = "<!-- keys:end -->"
        let start = try #require(page.firstRange(of: begin)).upperBound
        let stop = try #require(page.firstRange(of: end)).lowerBound
        #expect(String(page[start..<stop]) == OptionKey.markdownTable(),
            "run: linkpeek config keys --markdown, and paste it between the markers")
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
