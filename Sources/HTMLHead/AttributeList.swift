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

    private static func equals(_ cString: UnsafePointer<UInt8>, _ name: String) -> Bool {
        name.withCString { strcmp(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self), $0) == 0 }
    }

    func contains(_ name: String) -> Bool {
        var found = false
        forEach { key, _ in
            found = AttributeList.equals(key, name)
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

    /// Whether the C string `cString` is `name` in any ASCII case. A shorter
    /// string differs at its NUL, so no byte past it is read.
    private static func equalsIgnoringASCIICase(_ cString: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        for offset in 0..<count where ByteCursor.lower(cString[offset]) != name.utf8Start[offset] { return false }
        return cString[count] == 0
    }

    /// The first value of attribute `name` ("" when written without one).
    func value(of name: String) -> String? {
        var result: String?
        forEach { key, value in
            guard AttributeList.equals(key, name) else { return true }
            result = value.map { String(cString: $0) } ?? ""
            return false
        }
        return result
    }

    /// Up to this many attributes repeats are found by comparing names: as
    /// many as `TagGate` lets through of a tag, whose short names compare
    /// faster than a set hashes them (2,000 metas of 32 attributes: ~11 ms
    /// less CPU, with `HTMLElement`'s index also left to more than 32).
    private static let linearLimit = TagGate.attributeLimit

    /// All attributes in order, names lowercased, the first of a repeated
    /// name winning, each value cut to at most `maxValueBytes` bytes.
    func attributes(maxValueBytes: Int) -> [HTMLElement.Attribute] {
        var result: [HTMLElement.Attribute] = []
        // Repeats are found by a look through those kept so far; past
        // `linearLimit` (only when driven without the gate) by a set.
        var names: Set<String>?
        forEach { key, value in
            let name = AttributeList.lowercasedName(key)
            if result.count == AttributeList.linearLimit { names = Set(result.map(\.name)) }
            if names != nil {
                guard names?.insert(name).inserted == true else { return true }
            } else if result.contains(where: { $0.name == name }) {
                return true
            }
            result.append(HTMLElement.Attribute(
                name: name, value: value.map { AttributeList.string($0, maxBytes: maxValueBytes) } ?? ""))
            return true
        }
        return result
    }

    /// The name as a String, lowercased; libxml2 lowercases HTML attribute
    /// names already, so usually this is only the copy.
    private static func lowercasedName(_ key: UnsafePointer<UInt8>) -> String {
        var cursor = key
        while cursor.pointee != 0 {
            if cursor.pointee >= 0x41 && cursor.pointee <= 0x5A || cursor.pointee >= 0x80 {
                return String(cString: key).lowercased()
            }
            cursor += 1
        }
        return String(cString: key)
    }

    private static func string(_ cString: UnsafePointer<UInt8>, maxBytes: Int) -> String {
        let length = strlen(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self))
        guard length > maxBytes else { return String(cString: cString) }
        let bytes = Array(UnsafeBufferPointer(start: cString, count: maxBytes))
        return String(decoding: ElementCollector.droppingCutCharacter(bytes[...]), as: UTF8.self)
    }
}
