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

    /// All attributes, names lowercased, the first of a repeated name
    /// winning, each value cut to at most `maxValueBytes` bytes.
    func dictionary(maxValueBytes: Int) -> [String: String] {
        var count = 0
        forEach { _, _ in
            count += 1
            return true
        }
        var result = [String: String](minimumCapacity: count)
        forEach { key, value in
            let name = AttributeList.lowercasedName(key)
            guard result[name] == nil else { return true }
            result[name] = value.map { AttributeList.string($0, maxBytes: maxValueBytes) } ?? ""
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

extension AttributeList {
    /// True when the value of attribute `name` contains one of `needles`
    /// (ASCII lowercase), ignoring ASCII case. Reads the C strings in place,
    /// so testing every body element's `class` allocates nothing.
    func value(of name: StaticString, containsLowercased needles: StaticString...) -> Bool {
        guard let value = cString(of: name) else { return false }
        return needles.contains { AttributeList.find($0, in: value) }
    }

    private static func find(_ needle: StaticString, in value: UnsafePointer<UInt8>) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        var cursor = value
        while cursor.pointee != 0 {
            if ByteCursor.lower(cursor.pointee) == first {
                var offset = 1
                while offset < pattern.count, cursor[offset] != 0, ByteCursor.lower(cursor[offset]) == pattern[offset] {
                    offset += 1
                }
                if offset == pattern.count { return true }
            }
            cursor += 1
        }
        return false
    }

    /// The raw C string of attribute `name`'s first value, nil when absent
    /// or written without a value.
    private func cString(of name: StaticString) -> UnsafePointer<UInt8>? {
        guard var cursor = pairs else { return nil }
        let length = name.utf8CodeUnitCount
        while let key = cursor.pointee {
            // Bounded by the name's length (a StaticString need not end in
            // NUL); strncmp stops at the key's NUL, so a shorter key is safe.
            let keyChars = UnsafeRawPointer(key).assumingMemoryBound(to: CChar.self)
            let nameChars = UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
            if strncmp(keyChars, nameChars, length) == 0, key[length] == 0 {
                return cursor.advanced(by: 1).pointee
            }
            cursor = cursor.advanced(by: 2)
        }
        return nil
    }
}
