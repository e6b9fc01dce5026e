/// The one date form that `MetadataRules.isoDate` gives back unchanged,
/// recognised on its bytes: `2016-05-03`, `2016-05-03T14:58:00`, with a
/// fraction of a second (`.123`) and a zone (`Z`, `-07:00`). Most declared
/// dates (`article:published_time`, JSON-LD `datePublished`) are written
/// so, and reading them by the general rules (words, tokens, clocks,
/// zones) cost some thousand instructions each.
///
/// Only values in range pass (year 1000–9999, month 1–12, day 1–31, hour
/// 0–23, minute 0–59, second 0–60, zone up to 14:59): the general rules
/// write those back byte for byte. Anything else (`t`, `z`, a clock
/// without seconds, `+0700`, a value out of range) is theirs to read.
enum CanonicalISODate {
    static func holds(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(holds)
    }

    static func holds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Date: YYYY-MM-DD.
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(bytes, 0, 4), year >= 1000,
              let month = number(bytes, 5, 2), (1...12).contains(month),
              let day = number(bytes, 8, 2), (1...31).contains(day) else { return false }
        if bytes.count == 10 { return true }
        // Clock: THH:MM:SS, then an optional fraction.
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let hour = number(bytes, 11, 2), hour <= 23,
              let minute = number(bytes, 14, 2), minute <= 59,
              let second = number(bytes, 17, 2), second <= 60 else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > digits else { return false }
        }
        // Zone: nothing, Z, or ±HH:MM.
        let rest = bytes.count - index
        if rest == 0 { return true }
        if rest == 1 { return bytes[index] == UInt8(ascii: "Z") }
        guard rest == 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
              bytes[index + 3] == UInt8(ascii: ":"),
              let hours = number(bytes, index + 1, 2), hours <= 14,
              let minutes = number(bytes, index + 4, 2), minutes <= 59 else { return false }
        return true
    }

    /// The value of the `count` ASCII digits at `start`; nil when one is not a digit.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            guard isDigit(bytes[index]) else { return nil }
            value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        }
        return value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (byte &- UInt8(ascii: "0")) < 10
    }
}
