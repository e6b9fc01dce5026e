import JSON

/// Why bytes linkpeek kept (a cache row, a fleet entry, an image blob, a
/// saved link's preview) did not read back, in words short enough for a
/// log line: the field at fault when the decoder named one. Such bytes were
/// written by a bug, an older or newer linkpeek, or damaged on disk; every
/// reader treats them as absent and logs this.
struct StoredDamage: Error, Equatable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// `type` read from the JSON `bytes` (parsed by `JSONParser`, read by
    /// `JSONValueDecoder`, as every message is), or the damage said plainly.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws(StoredDamage) -> T {
        guard case .success(let value) = JSONParser.parse(Array(bytes)) else { throw StoredDamage("not JSON") }
        do {
            return try JSONValueDecoder.decode(type, from: value)
        } catch let error as DecodingError {
            throw StoredDamage(describe(error))
        } catch {
            throw StoredDamage("\(error)")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(path(context.codingPath)) of the wrong type"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // A number that does not fit its field (the decoder drops the
            // path there, as `JSONDecoder` did): said as before, as the parser's verdict.
            return "not JSON"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)) invalid"
        @unknown default:
            return "not readable"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "the value" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
