import FoundationEssentials

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`,
/// the obsolete RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime
/// `Sun Nov  6 08:49:37 1994`. Written out here because the date parsers
/// with time zones live in full Foundation, which linkpeek does not load.
enum HTTPDate {
    static func parse(_ text: String) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map { $0.lowercased() }
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        for token in tokens {
            if token.contains(":") {
                let parts = token.split(separator: ":").compactMap { Int($0) }
                guard parts.count == 3 else { return nil }
                clock = parts
            } else if month == nil, let index = MonthNames.abbreviated.firstIndex(of: token) {
                // No weekday abbreviation is also a month's, so an exact match is the month.
                month = index + 1
            } else if let number = Int(token) {
                if token.count >= 3 { year = number } else if day == nil { day = number } else { year = number }
            }
        }
        guard let day, let month, var year, let clock else { return nil }
        if year < 100 { year += year < 70 ? 2000 : 1900 }
        guard (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2]), (1601...9999).contains(year)
        else { return nil }
        let days = CivilDays.days(year: year, month: month, day: day)
        let seconds = Double(days * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
        return Date(timeIntervalSince1970: seconds)
    }

    /// IMF-fixdate, for `If-Modified-Since` when a validator must be written back.
    static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86400 : (total - 86399) / 86400
        let seconds = total - days * 86400
        let (year, month, day) = civilFromDays(days)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let abbreviation = MonthNames.abbreviated[month - 1]
        let monthName = abbreviation.prefix(1).uppercased() + abbreviation.dropFirst()
        return "\(weekday), \(two(day)) \(monthName) \(year) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)) GMT"
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let date = CivilDays.date(fromDays: days)
        return (date.year, date.month, date.day)
    }
}
