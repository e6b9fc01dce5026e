/// A plain length-prefixed byte encoding for the calls between linkpeek and
/// its cache library (`LinkPeekCacheStore`), which is loaded with `dlopen`
/// on first use and shares no Swift types with the code that loads it: each
/// side statically holds its own copy of this module, and only bytes cross.
///
/// Integers are 8 bytes little-endian, doubles their bit pattern, strings
/// and byte arrays a length then the bytes, optionals a presence byte.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func int(_ value: Int) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    public mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    public mutating func data(_ value: [UInt8]) {
        int(value.count)
        bytes.append(contentsOf: value)
    }

    public mutating func string(_ value: String) { data(Array(value.utf8)) }

    public mutating func optional<T>(_ value: T?, _ write: (inout ByteWriter, T) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    public mutating func strings(_ values: [String]) {
        int(values.count)
        for value in values { string(value) }
    }
}

/// Reads what `ByteWriter` wrote; every read is nil past the end or on a
/// length that does not fit, so a damaged buffer is a failed call, not a trap.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(_ pointer: UnsafePointer<UInt8>?, count: Int) {
        bytes = pointer.map { Array(UnsafeBufferPointer(start: $0, count: max(0, count))) } ?? []
    }

    private mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    private mutating func word() -> UInt64? {
        guard let slice = take(8) else { return nil }
        return slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    public mutating func int() -> Int? { word().map { Int(truncatingIfNeeded: Int64(bitPattern: $0)) } }
    public mutating func double() -> Double? { word().map(Double.init(bitPattern:)) }
    public mutating func bool() -> Bool? { take(1).map { $0.first == 1 } }
    public mutating func data() -> [UInt8]? { int().flatMap { take($0) }.map(Array.init) }
    public mutating func string() -> String? { data().map { String(decoding: $0, as: UTF8.self) } }

    /// nil when the buffer is damaged; `.some(nil)` when the value was absent.
    public mutating func optional<T>(_ read: (inout ByteReader) -> T?) -> T?? {
        guard let present = bool() else { return nil }
        guard present else { return .some(nil) }
        return read(&self).map { .some($0) }
    }

    public mutating func strings() -> [String]? {
        guard let count = int(), count >= 0, count <= bytes.count else { return nil }
        var values: [String] = []
        for _ in 0..<count {
            guard let value = string() else { return nil }
            values.append(value)
        }
        return values
    }
}
