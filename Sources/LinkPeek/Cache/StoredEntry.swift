import FoundationEssentials

extension StoredEntry {
    /// The entry this row holds; nil when the body does not decode (a row
    /// written by a bug, or bytes damaged on disk), which counts as a miss.
    var cacheEntry: CacheEntry? {
        let value: CacheEntry.Value
        if isFailure {
            guard let record = try? JSONDecoder().decode(FailureRecord.self, from: Data(body)) else { return nil }
            value = .failure(record.error)
        } else {
            guard let metadata = try? JSONDecoder().decode(LinkMetadata.self, from: Data(body)) else { return nil }
            value = .metadata(metadata)
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
        case .failure(let error): try? Array(JSONEncoder().encode(FailureRecord(error)))
        }
    }
}
