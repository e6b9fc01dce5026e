import FoundationEssentials
import JSON

extension StoredEntry {
    /// The entry this row holds, or why its body does not decode (a row
    /// written by a bug or another version, or bytes damaged on disk).
    func decodedEntry() throws(StoredDamage) -> CacheEntry {
        let value: CacheEntry.Value
        if isFailure {
            value = .failure(try StoredDamage.decode(FailureRecord.self, from: body).error)
        } else {
            value = .metadata(try StoredDamage.decode(LinkMetadata.self, from: body))
        }
        return CacheEntry(
            value: value, expiresAt: Date(timeIntervalSince1970: expiresAt), mustRevalidate: mustRevalidate,
            etag: etag, lastModified: lastModified, servedJSON: isFailure ? nil : body)
    }
}

/// A cached failure as stored: what `FetchError` carries.
struct FailureRecord: Codable {
    var kind: FetchError.Kind
    var reason: String?
    var status: Int?
    var message: String
    var wall: Wall?

    init(_ error: FetchError) {
        kind = error.kind
        reason = error.reason?.rawValue
        status = error.status
        message = error.message
        wall = error.wall
    }

    var error: FetchError {
        FetchError(kind: kind, reason: reason.map(FetchError.Reason.init(rawValue:)), status: status, message: message, wall: wall)
    }
}

extension CacheEntry {
    /// The body column for this entry; nil when it cannot be encoded.
    var storedBody: [UInt8]? {
        switch value {
        case .metadata: servedJSON
        case .failure(let error): try? WireJSON.bytes(of: FailureRecord(error))
        }
    }
}
