import FoundationEssentials

/// `Date.formatted(.iso8601)`'s text ("2026-11-29T17:41:28Z": UTC, whole
/// seconds), written from the date's seconds with integer arithmetic.
///
/// Foundation's format style goes through `Calendar` and the current
/// `TimeZone`; where FoundationInternationalization is linked (the one
/// binary links it), that opens ICU's time zone data on the first call:
/// about 1.5 MB of resident pages of ICU code and data in every `fetch`,
/// for a text that needs neither. Dates outside years 1970–9999 (none that
/// the engine writes) still take Foundation's way.
enum UTCTimestamp {
    private static let firstSecond: Double = 0                       // 1970-01-01T00:00:00Z
    private static let pastLastSecond: Double = 253_402_300_800      // 10000-01-01T00:00:00Z

    static func string(_ date: Date) -> String {
        let time = date.timeIntervalSince1970
        guard time >= firstSecond, time < pastLastSecond else { return date.formatted(.iso8601) }
        // In range, so the seconds fit any Int and nothing below can overflow.
        let seconds = Int(time.rounded(.down))
        let days = seconds / 86_400
        let ofDay = seconds % 86_400
        let (year, month, day) = civilDate(daysSince1970: days)
        var text = [UInt8]()
        text.reserveCapacity(20)
        append(year, digits: 4, to: &text)
        text.append(UInt8(ascii: "-"))
        append(month, digits: 2, to: &text)
        text.append(UInt8(ascii: "-"))
        append(day, digits: 2, to: &text)
        text.append(UInt8(ascii: "T"))
        append(ofDay / 3600, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(ofDay / 60 % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: ":"))
        append(ofDay % 60, digits: 2, to: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// The proleptic Gregorian (year, month, day) of a day count from
    /// 1970-01-01 (≥ 0): counted in 400-year eras of 146,097 days, each
    /// starting on 1 March so that the leap day ends its year. The method is
    /// Howard Hinnant's published `civil_from_days` ("chrono-Compatible
    /// Low-Level Date Algorithms"), written out here in Swift.
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468                 // days from 0000-03-01
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097       // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)   // from 1 March
        let monthFromMarch = (5 * dayOfYear + 2) / 153                                // 0 = March
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func append(_ value: Int, digits: Int, to text: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
