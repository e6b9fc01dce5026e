import Testing

@testable import HTMLHead

/// Tier 1: an `AttributeList` over a hand-made C array (as libxml2 passes
/// one): names lowercased, the first of a repeated name winning, with few
/// attributes (compared by name) and with more than a tag can bring through
/// the gate (by a set).
@Suite struct AttributeListTests {
    /// The attributes of `pairs` (nil values: written without one).
    private func attributes(_ pairs: [(String, String?)], maxValueBytes: Int = 100) -> [HTMLElement.Attribute] {
        var storage: [UnsafeMutablePointer<UInt8>?] = []
        for (name, value) in pairs {
            storage.append(strdupBytes(name))
            storage.append(value.map(strdupBytes))
        }
        storage.append(nil)
        defer { storage.forEach { $0?.deallocate() } }
        var array = storage.map { $0.map { UnsafePointer($0) } }
        return array.withUnsafeMutableBufferPointer { buffer in
            AttributeList(pairs: buffer.baseAddress).attributes(maxValueBytes: maxValueBytes)
        }
    }

    private func strdupBytes(_ text: String) -> UnsafeMutablePointer<UInt8> {
        let bytes = Array(text.utf8) + [0]
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }

    @Test func theFirstOfARepeatedNameWinsInAnyCase() {
        for count in [0, 5, 31, 32, 33, 100] {
            let filler = (0..<count).map { ("a\($0)", Optional("v\($0)")) }
            let pairs = [("Name", "first"), ("content", nil)] + filler + [("NAME", "second"), ("a0", "again"), ("ÉTÉ", "1"), ("été", "2")]
            let result = attributes(pairs)
            #expect(result.count == count + (count == 0 ? 4 : 3), "\(count)")
            #expect(result.first { $0.name == "name" }?.value == "first", "\(count)")
            #expect(result.first { $0.name == "content" }?.value == "", "\(count)")
            #expect(result.first { $0.name == "a0" }?.value == (count > 0 ? "v0" : "again"), "\(count)")
            #expect(result.first { $0.name == "été" }?.value == "1", "\(count)")
            #expect(Set(result.map(\.name)).count == result.count, "\(count)")
        }
    }

    @Test func namesAlikeInTheirFirstBytesStayApart() {
        let pairs = (0..<40).map { ("data-attribute-\($0)", Optional("\($0)")) } + [("data-attribute-7", "x")]
        let result = attributes(pairs)
        #expect(result.count == 40)
        #expect(result.first { $0.name == "data-attribute-7" }?.value == "7")
    }

    @Test func valuesAreCutAtACharacter() {
        let result = attributes([("a", "ééé"), ("b", "abcdef")], maxValueBytes: 5)
        #expect(result.map(\.value) == ["éé", "abcde"])
    }
}
