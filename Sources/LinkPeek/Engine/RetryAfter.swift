import FoundationEssentials
import TextTrimming

/// `Retry-After` (RFC 9110 §10.2.3): how long a server that answered 429 or
/// 503 asks to be left alone, as delta-seconds (`120`) or an HTTP date
/// (`Sun, 06 Nov 1994 08:49:37 GMT`).
enum RetryAfter {
    /// The longest wait honoured: a server may ask for a day, but a preview
    /// that fails fast for that long looks broken; ten minutes is polite.
    static let maximumSeconds = 600

    /// Whole seconds to wait, within `0...maximumSeconds` (a date is counted
    /// from `now`, rounded up); nil when the value is absent or neither form.
    static func seconds(_ value: String?, now: Date) -> Int? {
        guard let value else { return nil }
        let text = value.trimmedWhitespace
        guard !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Any number of digits: past the cap is the cap, so no conversion can overflow.
            let significant = text.drop { $0 == "0" }
            guard significant.count <= 6, let seconds = Int(significant.isEmpty ? "0" : String(significant)) else {
                return maximumSeconds
            }
            return min(seconds, maximumSeconds)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        let delta = date.timeIntervalSince(now)
        guard delta > 0 else { return 0 }
        return delta >= Double(maximumSeconds) ? maximumSeconds : Int(delta.rounded(.up))
    }
}
