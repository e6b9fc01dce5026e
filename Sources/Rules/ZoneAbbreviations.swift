/// Time-zone abbreviations that pages write after a time ("9:05 PM PT",
/// "Tue Mar 09 08:15:00 EST 2021"), as UTC offsets: the one table the date
/// rules read.
///
/// Abbreviations are not unique; where one names several zones, the table
/// holds the reading that English-language news pages mean, and says why:
/// - `IST` is India Standard Time (+05:30), not Irish Summer Time (+01:00) or
///   Israel Standard Time (+02:00): Irish pages write BST/GMT or "Irish
///   time", Israeli ones mostly write no zone; Indian news sites write "IST"
///   after almost every time.
/// - `CST` is US Central Standard Time (−06:00), not China Standard Time
///   (+08:00): Chinese pages write 北京时间 or +08:00, and US pages write
///   CST in bylines.
/// - `BST` is British Summer Time (+01:00), not Bangladesh (+06:00).
/// - `MST` is US Mountain Standard Time (−07:00), not Malaysia (+08:00).
/// - `AST` is Atlantic Standard Time (−04:00), not Arabia (+03:00).
enum ZoneAbbreviations {
    /// Abbreviations with one offset all year, in minutes east of UTC.
    static let fixed: [String: Int] = [
        "UTC": 0, "GMT": 0, "Z": 0, "UT": 0, "WET": 0,
        "EST": -300, "EDT": -240, "CST": -360, "CDT": -300, "MST": -420, "MDT": -360,
        "PST": -480, "PDT": -420, "AKST": -540, "AKDT": -480, "HST": -600, "AST": -240, "ADT": -180,
        "NST": -210, "NDT": -150,
        "BST": 60, "IST": 330, "WEST": 60, "CET": 60, "CEST": 120, "MEZ": 60, "MESZ": 120,
        "EET": 120, "EEST": 180, "MSK": 180, "SAST": 120, "WAT": 60, "EAT": 180,
        "GST": 240, "PKT": 300, "NPT": 345, "ICT": 420, "WIB": 420, "HKT": 480, "SGT": 480,
        "PHT": 480, "AWST": 480, "JST": 540, "KST": 540, "ACST": 570, "ACDT": 630,
        "AEST": 600, "AEDT": 660, "NZST": 720, "NZDT": 780,
    ]

    /// US zones written without standard or daylight ("ET", "PT"): their
    /// standard offset, one hour more while US daylight time is in force.
    static let usGeneric: [String: Int] = ["ET": -300, "CT": -360, "MT": -420, "PT": -480, "AKT": -540]

    /// The offset `abbreviation` names on that day, as ISO 8601 ("Z",
    /// "-07:00"), or nil for a word that is no zone in this table.
    static func offset(_ abbreviation: String, year: Int, month: Int, day: Int) -> String? {
        let upper = abbreviation.uppercased()
        var minutes = fixed[upper]
        if minutes == nil, let standard = usGeneric[upper] {
            minutes = standard + (isUSDaylightTime(year: year, month: month, day: day) ? 60 : 0)
        }
        guard let minutes else { return nil }
        return isoOffset(minutes: minutes)
    }

    /// "Z" for 0, else "+05:30" / "-07:00".
    static func isoOffset(minutes: Int) -> String {
        guard minutes != 0 else { return "Z" }
        let sign = minutes < 0 ? "-" : "+"
        let hours = abs(minutes) / 60, rest = abs(minutes) % 60
        return sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// US daylight time, by the date alone (the rule since 2007): from the
    /// second Sunday of March to the first Sunday of November.
    static func isUSDaylightTime(year: Int, month: Int, day: Int) -> Bool {
        switch month {
        case 4...10: return true
        case 3: return day >= secondSunday(year: year, month: 3)
        case 11: return day < secondSunday(year: year, month: 11) - 7
        default: return false
        }
    }

    private static func secondSunday(year: Int, month: Int) -> Int {
        let firstWeekday = weekday(year: year, month: month, day: 1)
        return 1 + (7 - firstWeekday) % 7 + 7
    }

    /// 0 = Sunday (Sakamoto's method).
    static func weekday(year: Int, month: Int, day: Int) -> Int {
        let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
        let y = month < 3 ? year - 1 : year
        return (y + y / 4 - y / 100 + y / 400 + offsets[((month - 1) % 12 + 12) % 12] + day) % 7
    }
}
