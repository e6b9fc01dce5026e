import FoundationEssentials
import JSON
import Redis

/// How a cache entry is kept in Redis: versioned, compressed, and checked
/// on the way back. Anything that does not decode exactly is refused with
/// what is wrong (`StoredDamage`) — ignored, logged, and at the next fetch
/// overwritten — never trusted.
///
/// Layout: `LPF1` · uncompressed size (UInt32 LE) · zlib data of:
/// kind (0 preview, 1 failure) · flags (bit 0: must revalidate) ·
/// expiresAt (Float64 bits, UInt64 LE) · etag · lastModified · body,
/// each string as a UInt32 LE length (0xFFFFFFFF: absent) and its bytes.
/// The body is the preview's served JSON, or the failure as `FleetFailure` JSON.
enum FleetEntry {
    static let magic: [UInt8] = Array("LPF1".utf8)
    private static let absent = UInt32.max

    static func encode(_ entry: CacheEntry) -> [UInt8]? {
        let body: [UInt8]
        switch entry.value {
        case .metadata:
            guard let json = entry.servedJSON else { return nil }
            body = json
        case .failure(let error):
            guard let json = try? WireJSON.bytes(of: FleetFailure(error)) else { return nil }
            body = json
        }
        var plain: [UInt8] = []
        plain.reserveCapacity(body.count + 64)
        if case .failure = entry.value { plain.append(1) } else { plain.append(0) }
        plain.append(entry.mustRevalidate ? 1 : 0)
        append(entry.expiresAt.timeIntervalSince1970.bitPattern, to: &plain)
        appendField(entry.etag.map { Array($0.utf8) }, to: &plain)
        appendField(entry.lastModified.map { Array($0.utf8) }, to: &plain)
        appendField(body, to: &plain)
        guard plain.count <= Zlib.maximumSize, let packed = Zlib.compress(plain) else { return nil }
        var bytes = magic
        append(UInt32(plain.count), to: &bytes)
        bytes += packed
        return bytes
    }

    /// The entry `encode` wrote, or what is wrong with anything else.
    static func decode(_ bytes: [UInt8]) throws(StoredDamage) -> CacheEntry {
        guard bytes.count > 8, Array(bytes.prefix(4)) == magic else { throw StoredDamage("not a fleet entry") }
        var header = Reader(bytes: bytes, offset: 4)
        guard let size = header.uint32(), let plain = Zlib.decompress(Array(bytes[8...]), size: Int(size)) else {
            throw StoredDamage("does not decompress to its size")
        }
        var reader = Reader(bytes: plain, offset: 0)
        guard let kind = reader.byte(), kind <= 1, let flags = reader.byte(), flags <= 1,
            let bits = reader.uint64(), case let expiresAt = Double(bitPattern: bits), expiresAt.isFinite,
            let etag = reader.field(), let lastModified = reader.field(), let body = reader.field(),
            let body, reader.atEnd
        else { throw StoredDamage("fields out of layout") }
        let value: CacheEntry.Value
        if kind == 1 {
            value = .failure(try StoredDamage.decode(FleetFailure.self, from: body).error)
        } else {
            value = .metadata(try StoredDamage.decode(LinkMetadata.self, from: body))
        }
        return CacheEntry(
            value: value, expiresAt: Date(timeIntervalSince1970: expiresAt), mustRevalidate: flags == 1,
            etag: etag.flatMap { String(validating: $0, as: UTF8.self) },
            lastModified: lastModified.flatMap { String(validating: $0, as: UTF8.self) },
            servedJSON: kind == 1 ? nil : body)
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func appendField(_ field: [UInt8]?, to bytes: inout [UInt8]) {
        guard let field else { return append(absent, to: &bytes) }
        append(UInt32(clamping: field.count), to: &bytes)
        bytes += field
    }

    /// Bounds-checked reads; every one answers nil past the end.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        var atEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
            let width = MemoryLayout<T>.size
            guard bytes.count - offset >= width else { return nil }
            var value: T = 0
            for index in 0..<width { value |= T(bytes[offset + index]) << (8 * index) }
            offset += width
            return value
        }

        mutating func uint32() -> UInt32? { integer(UInt32.self) }
        mutating func uint64() -> UInt64? { integer(UInt64.self) }

        /// A length-prefixed field: `.some(nil)` when absent, nil when malformed.
        mutating func field() -> [UInt8]?? {
            guard let length = uint32() else { return nil }
            if length == absent { return .some(nil) }
            let count = Int(length)
            guard bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return .some(Array(bytes[offset..<offset + count]))
        }
    }
}

/// A shared failure: what `FetchError` carries, so that every daemon answers
/// it as the one that met it did (and for as long: the entry's lifetime is
/// the local cache's for that reason, `CacheLifetime.failure`).
struct FleetFailure: Codable {
    var kind: FetchError.Kind
    var reason: String?
    var status: Int?
    var message: String

    init(_ error: FetchError) {
        kind = error.kind
        reason = error.reason?.rawValue
        status = error.status
        message = error.message
    }

    var error: FetchError {
        FetchError(kind: kind, reason: reason.map(FetchError.Reason.init(rawValue:)), status: status, message: message)
    }
}
