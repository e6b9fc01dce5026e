import LinkPeek
#if canImport(Glibc)
import Glibc
#endif

/// A strong `ETag` for a body: FNV-1a (64 bits) of its bytes, in hex and
/// quotes. Not a security hash: it tells a client's copy from a changed one.
enum ETag {
    static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
    }

    /// Whether an `If-None-Match` value (`*`, or a list of tags, weak or strong) names `etag`.
    static func matches(_ header: String, _ etag: String) -> Bool {
        if header.trimmingSpaces == "*" { return true }
        return header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingSpaces
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            return tag == etag
        }
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

/// `Cache-Control` for a preview, from its `expiresAt`: `public, max-age=N`
/// while fresh, `no-cache` once past it or without one. Read from the bytes
/// (the field is near the end of a stored preview), not by decoding them.
enum PreviewFreshness {
    static func cacheControl(_ json: [UInt8], now: Int64 = currentSeconds()) -> String {
        cacheControl(expiresAt: expiresAt(json), now: now)
    }

    /// The same from the preview's `expiresAt` as read by `expiresAt(_:)`.
    static func cacheControl(expiresAt expires: Int64?, now: Int64) -> String {
        guard let expires else { return "no-cache" }
        let left = expires - now
        return left > 0 ? "public, max-age=\(left)" : "no-cache"
    }

    /// Seconds since 1970 of the JSON's `"expiresAt":"YYYY-MM-DDTHH:MM:SS…Z"`.
    static func expiresAt(_ json: [UInt8]) -> Int64? {
        let key = Array("\"expiresAt\":\"".utf8)
        guard json.count > key.count else { return nil }
        var index = json.count - key.count
        while index >= 0 {
            if json[index] == key[0], json[index..<(index + key.count)].elementsEqual(key) {
                return parseISO(json, from: index + key.count)
            }
            index -= 1
        }
        return nil
    }

    /// `YYYY-MM-DDTHH:MM:SS` at `start` (UTC; fractions and the zone letter after it are not read).
    static func parseISO(_ bytes: [UInt8], from start: Int) -> Int64? {
        guard start + 19 <= bytes.count else { return nil }
        func number(_ offset: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[(start + offset)..<(start + offset + count)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return Int64(CivilDays.days(year: Int(year), month: Int(month), day: Int(day))) * 86400 + hour * 3600 + minute * 60 + second
    }

    static func currentSeconds() -> Int64 {
        Int64(time(nil))
    }
}
