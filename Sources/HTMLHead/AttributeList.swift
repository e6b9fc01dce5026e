import TextTrimming

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The attributes libxml2 passes to a start-tag callback: a NULL-terminated
/// array of name, value, name, value... (a value is NULL for an attribute
/// written without one). Only valid during the callback.
///
/// Lookups read the C strings in place, so deciding that an element is of no
/// interest allocates nothing.
struct AttributeList {
    let pairs: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    /// Calls `body` with each (name, value) pair until it returns false.
    private func forEach(_ body: (UnsafePointer<UInt8>, UnsafePointer<UInt8>?) -> Bool) {
        guard var cursor = pairs else { return }
        while let name = cursor.pointee {
            guard body(name, cursor.advanced(by: 1).pointee) else { return }
            cursor = cursor.advanced(by: 2)
        }
    }

    func contains(_ name: StaticString) -> Bool {
        var found = false
        forEach { key, _ in
            found = ElementCollector.equalsASCII(key, name)
            return !found
        }
        return found
    }

    /// Whether an attribute is named one of `names` (lowercase ASCII), in
    /// any ASCII case, the list read once.
    func containsAny(of names: [StaticString]) -> Bool {
        var found = false
        forEach { key, _ in
            found = names.contains { AttributeList.equalsIgnoringASCIICase(key, $0) }
            return !found
        }
        return found
    }

    /// Whether an attribute is named one of `names` (lowercase ASCII bytes),
    /// in any ASCII case.
    func containsAny(ofNames names: [[UInt8]]) -> Bool {
        var found = false
        forEach { key, _ in
            found = names.contains { name in
                for (offset, byte) in name.enumerated() where ByteCursor.lower(key[offset]) != byte { return false }
                return key[name.count] == 0
            }
            return !found
        }
        return found
    }

    /// Whether the C string `cString` is `name` in any ASCII case. A shorter
    /// string differs at its NUL, so no byte past it is read.
    static func equalsIgnoringASCIICase(_ cString: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        for offset in 0..<count where ByteCursor.lower(cString[offset]) != name.utf8Start[offset] { return false }
        return cString[count] == 0
    }

    /// The first value of attribute `name` ("" when written without one).
    func value(of name: StaticString) -> String? {
        var result: String?
        forEach { key, value in
            guard ElementCollector.equalsASCII(key, name) else { return true }
            result = value.map { String(cString: $0) } ?? ""
            return false
        }
        return result
    }

    /// Up to this many attributes repeats are found by comparing names: as
    /// many as `TagGate` lets through of a tag, whose names compare faster
    /// than a set hashes them (2,000 metas of 32 attributes: ~11 ms less CPU,
    /// with `HTMLElement`'s index also left to more than 32).
    private static let linearLimit = TagGate.attributeLimit

    /// All attributes in order, names lowercased, the first of a repeated
    /// name winning, each value cut to at most `maxValueBytes` bytes.
    func attributes(maxValueBytes: Int) -> [HTMLElement.Attribute] {
        guard let pairs else { return [] }
        var count = 0
        while pairs[2 * count] != nil { count += 1 }
        var result: [HTMLElement.Attribute] = []
        result.reserveCapacity(count)
        // Repeats are found by a look through those kept so far, comparing a
        // word made of each name's first bytes before the names themselves;
        // past `linearLimit` (only when driven without the gate) by a set.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: AttributeList.linearLimit) { words in
            var names: Set<String>?
            for position in 0..<count {
                guard let key = pairs[2 * position] else { break }
                let (name, word) = AttributeList.lowercasedName(key)
                if names == nil, result.count == AttributeList.linearLimit { names = Set(result.map(\.name)) }
                if names != nil {
                    guard names?.insert(name).inserted == true else { continue }
                } else {
                    var repeated = false
                    for earlier in 0..<result.count where words[earlier] == word && result[earlier].name == name {
                        repeated = true
                        break
                    }
                    if repeated { continue }
                    words[result.count] = word
                }
                let value = pairs[2 * position + 1].map { AttributeList.string($0, maxBytes: maxValueBytes) }
                result.append(HTMLElement.Attribute(name: name, value: value ?? ""))
            }
        }
        return result
    }

    /// The name as a String, lowercased, and a word of its first eight bytes
    /// and its length (equal names give equal words). libxml2 lowercases
    /// HTML attribute names already, so usually the String is only the copy.
    private static func lowercasedName(_ key: UnsafePointer<UInt8>) -> (String, UInt64) {
        var length = 0
        var plain = true
        while key[length] != 0 {
            if ASCIIByte.isUppercase(key[length]) || key[length] >= 0x80 { plain = false }
            length += 1
        }
        let bytes = UnsafeBufferPointer(start: key, count: length)
        let name = plain ? String(decoding: bytes, as: UTF8.self) : String(decoding: bytes, as: UTF8.self).lowercased()
        var word = UInt64(truncatingIfNeeded: name.utf8.count) << 56
        for (offset, byte) in name.utf8.prefix(7).enumerated() { word |= UInt64(byte) << UInt64(8 * offset) }
        return (name, word)
    }

    private static func string(_ cString: UnsafePointer<UInt8>, maxBytes: Int) -> String {
        let length = strlen(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self))
        let bytes = UnsafeBufferPointer(start: cString, count: min(length, maxBytes))
        guard length > maxBytes else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: ElementCollector.droppingCutCharacter(Array(bytes)[...]), as: UTF8.self)
    }
}
