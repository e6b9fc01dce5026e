import TextTrimming

/// The date forms `isoDate` reads besides words and ISO 8601: numeric
/// dates in their national orders, CJK dates with unit characters, and the
/// pieces that come glued to them.
extension MetadataRules {
    /// A numeric date token as year, month and day:
    /// - year first, any of `-`, `.`, `/` ("2021-06-05", "2021.06.05", "2021/06/05");
    /// - year last with dots: day first, as Europe writes it ("23.08.2021");
    /// - year last with `/` or `-`: month first, as the US writes it
    ///   ("3/14/2021", "03-09-2021"), unless the first number cannot be a
    ///   month ("14/03/2021" is the 14th) or the page's language writes the
    ///   day first (`dayFirst`, `writesDayFirst`) and the second can be one.
    static func numericDateParts(_ token: String, dayFirst: Bool = false) -> (year: Int, month: Int, day: Int)? {
        guard let separator = token.first(where: { $0 == "-" || $0 == "." || $0 == "/" }) else { return nil }
        let parts = token.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
              let first = Int(parts[0]), let second = Int(parts[1]), let third = Int(parts[2]) else { return nil }
        if parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2 { return (first, second, third) }
        guard parts[2].count == 4, parts[0].count <= 2, parts[1].count <= 2 else { return nil }
        if separator == "." || first > 12 || dayFirst && second <= 12 { return (third, second, first) }
        return (third, first, second)
    }

    /// A date written with CJK unit characters, as ISO 8601:
    /// "2021年07月09日 08時15分", "最終更新日：2021年3月9日", "2021년 3월 9일 오후 8:15".
    /// A number counts only directly before its unit, so labels that hold
    /// the characters ("更新日") are passed over. Nil without year, month and day.
    static func cjkDate(_ text: String) -> String? {
        guard !ASCIIText.isASCII(text), text.contains(where: { "年년月월".contains($0) }) else { return nil }
        var fields: [Character: Int] = [:]
        var digits = ""
        var afternoon = false
        var clock: (hour: Int, minute: Int, second: Int, fraction: String)?
        var rest = Substring(text)
        while let character = rest.first {
            if let ascii = fullWidthDigit(character) {
                digits.append(ascii)
                rest = rest.dropFirst()
                continue
            }
            if character == ":" || character == "：", !digits.isEmpty, fields["年"] != nil {
                // "8:15" after the date: the clock is the run of digits and colons.
                let run = rest.prefix { $0.isASCIIDigit || $0 == ":" }
                clock = clockTime(digits + run)
                rest = rest.dropFirst(run.count)
                digits = ""
                continue
            }
            if let unit = cjkUnits[character], let value = Int(digits), fields[unit] == nil { fields[unit] = value }
            if character == "後" || character == "후" { afternoon = true }  // 午後, 오후: afternoon
            digits = ""
            rest = rest.dropFirst()
        }
        guard let year = fields["年"], let month = fields["月"], let day = fields["日"],
              (1000...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var result = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        if clock == nil, let hour = fields["時"] {
            clock = (hour, fields["分"] ?? 0, fields["秒"] ?? 0, "")
        }
        guard var clock else { return result }
        if afternoon, (1...11).contains(clock.hour) { clock.hour += 12 }
        guard (0...23).contains(clock.hour), (0...59).contains(clock.minute), (0...60).contains(clock.second) else {
            return result
        }
        result += "T\(pad(clock.hour, 2)):\(pad(clock.minute, 2)):\(pad(clock.second, 2))"
        // A zone written after the date ("17時05分 JST", "08:15 +09:00").
        for word in text.split(separator: " ").dropFirst() {
            let token = String(word)
            if let zone = zoneOffset(token) ?? ZoneAbbreviations.offset(token, year: year, month: month, day: day) {
                return result + zone
            }
        }
        return result
    }

    /// Unit characters (Japanese, Chinese, Korean) → the field they close.
    private static let cjkUnits: [Character: Character] = [
        "年": "年", "년": "年", "月": "月", "월": "月", "日": "日", "일": "日", "号": "日", "號": "日",
        "時": "時", "时": "時", "시": "時", "点": "時", "點": "時", "分": "分", "분": "分", "秒": "秒", "초": "秒",
    ]

    /// An ASCII digit for "0"…"9" and their full-width forms ("２０２１").
    private static func fullWidthDigit(_ character: Character) -> Character? {
        if character.isASCIIDigit { return character }
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
              (0xFF10...0xFF19).contains(scalar.value),
              let ascii = Unicode.Scalar(scalar.value - 0xFF10 + 0x30) else { return nil }
        return Character(ascii)
    }

    /// The text without parenthesised parts: `Date.toString`'s zone name
    /// ("(Eastern Standard Time)"), "(updated)". A zone abbreviation in
    /// parentheses stays, as a word ("8:15 AM (EST)" → "8:15 AM EST").
    static func withoutParentheses(_ text: String) -> String {
        guard text.contains("(") else { return text }
        var output = ""
        var depth = 0
        var inner = ""
        for character in text {
            if character == "(" {
                depth += 1
                inner = ""
                continue
            }
            if character == ")" {
                if depth == 1, (2...5).contains(inner.count), inner.allSatisfy({ $0.isASCII && $0.isUppercase }) {
                    output += " " + inner
                }
                depth = max(0, depth - 1)
                continue
            }
            if depth == 0 { output.append(character) } else { inner.append(character) }
        }
        return output
    }

    /// A clock written with a dot or an "h" between hours and minutes, as
    /// British, Nordic and French pages do ("08.15 GMT", "8.15", "08h15"),
    /// read only after a day or month (before them "9.3" could be a date).
    static func otherClock(_ token: String) -> (hour: Int, minute: Int, second: Int, fraction: String)? {
        for separator: Character in [".", "h", "H"] {
            let parts = token.split(separator: separator, omittingEmptySubsequences: false)
            guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
                  parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]) else { continue }
            return (hour, minute, 0, "")
        }
        return nil
    }

    /// "9-Mar-2021" → ["9", "Mar", "2021"]: a day, a month name and a year
    /// joined by hyphens; nil for other tokens.
    static func splitDashedMonth(_ token: String) -> [String]? {
        guard token.contains("-"), token.contains(where: \.isLetter) else { return nil }
        let parts = token.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, MonthNames.number[parts[1].lowercased()] != nil,
              parts[0].allSatisfy(\.isASCIIDigit), parts[2].allSatisfy(\.isASCIIDigit), !parts[0].isEmpty, !parts[2].isEmpty
        else { return nil }
        return parts
    }

    /// "9:05PM" → ("9:05", true); "8:15am" → ("8:15", false); nil when no
    /// meridiem is glued to the clock.
    static func gluedMeridiem(_ token: String) -> (String, Bool)? {
        let lower = token.lowercased()
        for (suffix, isPM) in [("p.m.", true), ("a.m.", false), ("pm", true), ("am", false)] where lower.hasSuffix(suffix) {
            let clock = String(token.dropLast(suffix.count))
            guard clock.contains(":"), clock.last?.isASCIIDigit == true else { return nil }
            return (clock, isPM)
        }
        return nil
    }

    /// Whether the page's language writes a numeric date day first
    /// ("09/03/2021" is 9 March): every language but English, and the
    /// English of every region but the United States and its neighbours
    /// ("en-GB", "en-IN", "en-AU"). Plain "en" is read as the US writes it.
    static func writesDayFirst(_ page: PageIndex) -> Bool {
        guard let lang = TextCleaner.clean(page.htmlLang)?.lowercased() else { return false }
        let subtags = lang.split { $0 == "-" || $0 == "_" }
        guard let primary = subtags.first else { return false }
        guard primary == "en" else { return !monthFirstLanguages.contains(String(primary)) }
        guard subtags.count >= 2 else { return false }
        return !["us", "ca", "ph"].contains(String(subtags[1]))
    }

    /// Languages that write a numeric date year first or month first, never day first.
    private static let monthFirstLanguages: Set<String> = ["ja", "zh", "ko", "hu", "lt", "mn"]

    /// Epoch time as ISO 8601 UTC: 9 or 10 digits are seconds
    /// ("1615277700"), 12 or 13 milliseconds ("1615277700000"); years
    /// outside 2001–2286 are no page dates. Nil for other text.
    static func epochDate(_ text: String) -> String? {
        let digits = text.trimmedSpaces
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else { return nil }
        let seconds: Int
        switch digits.count {
        case 9, 10: seconds = value
        case 12, 13: seconds = value / 1000
        default: return nil
        }
        let days = seconds / 86_400, rest = seconds % 86_400
        let (year, month, day) = CivilDays.date(fromDays: days)
        guard (2001...2286).contains(year) else { return nil }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(rest / 3600, 2)):\(pad(rest % 3600 / 60, 2)):\(pad(rest % 60, 2))Z"
    }
}
