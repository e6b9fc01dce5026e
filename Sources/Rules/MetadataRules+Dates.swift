import FoundationEssentials
import HTMLHead

/// `publishedTime` as ISO 8601, keeping the page's own offset: pages write
/// "2016-05-03 14:58:00 -0700", "Tue, 03 May 2016 14:58:00 GMT" or "May 3,
/// 2016, 2:58 p.m."; a client should parse one form. A value in none of the
/// forms below is kept as written.
extension MetadataRules {
    /// The date a byline shows in its text ("By Ann Lee · May 3, 2016,
    /// 2:58 p.m.", "Posted on 3 May 2016 by Ann"): the longest run of words
    /// that reads as a whole date. Only bylines are read — marked ones, and
    /// credit lines that start with a byline prefix and name people (`<p
    /// class="meta">By Ann Lee on March 9, 2021</p>`, an `<address>`):
    /// elsewhere a date in the text is as likely an event's as the page's.
    /// Of several, the best-placed (`BodyPlace`), as for `<time>`.
    static func datelineDate(in page: PageIndex) -> (place: BodyPlace, value: Picked<String>)? {
        let dayFirst = writesDayFirst(page)
        return bestPlaced(in: page) { _, element in
            guard isMarkedByline(element) || isLabelledByline(element), let text = TextCleaner.clean(element.text), hasYear(text),
                  let date = dateInText(text, dayFirst: dayFirst) else { return nil }
            return Picked(value: date, source: "dateline")
        }
    }

    /// The date a recorded element shows when its `class` or `id` says it
    /// is the page's date (`<p class="published-date">March 9, 2021</p>`,
    /// `entry-date`, `pubdate`, `timestamp`): templates that write it
    /// without `<time>`. Only a short text that holds a whole date with a
    /// year; never an element named for the update ("updated-date").
    static func namedDateElementDate(in page: PageIndex) -> (place: BodyPlace, value: Picked<String>)? {
        let dayFirst = writesDayFirst(page)
        return bestPlaced(in: page) { _, element in
            guard element.name != "time", namesPageDate(element) else { return nil }
            // hAtom keeps the machine-readable date in an `<abbr>`'s title
            // and shows a short one: `<abbr class="published"
            // title="2021-03-09T08:15:00+00:00">March 9</abbr>`.
            if element.name == "abbr", let date = dateText(element["title"], dayFirst: dayFirst) {
                return Picked(value: date, source: "dated element")
            }
            guard let text = TextCleaner.clean(element.text), text.count <= maximumNamedDateLength, hasYear(text),
                  let date = dateInText(text, dayFirst: dayFirst)
            else { return nil }
            return Picked(value: date, source: "dated element")
        }
    }

    /// A named date element's text is the date and a word or two around it.
    static let maximumNamedDateLength = 60

    /// True when a token of `class` or `id` is a date word ("date",
    /// "pubdate", "published", "timestamp", "dateline") and none names an
    /// update.
    static func namesPageDate(_ element: HTMLElement) -> Bool {
        let tokens = ["class", "id"].compactMap { element[$0] }.flatMap { value in
            ASCIIText.lowercasedLetterRuns(value) ?? value.lowercased().split { !$0.isLetter }.map(String.init)
        }
        return tokens.contains { pageDateWords.contains($0) }
            && !tokens.contains { $0.hasPrefix("update") || $0.hasPrefix("modif") }
    }

    /// The ISO 8601 form of the longest run of `text`'s words that is a
    /// date with a year, or nil.
    static func dateInText(_ text: String, dayFirst: Bool = false) -> String? {
        let words = text.split { $0 == " " || "|·•—–".contains($0) }.map(String.init)
        guard words.count <= maximumDatelineWords else { return nil }
        var best: (length: Int, date: String)?
        for start in words.indices {
            for end in stride(from: words.count, to: start, by: -1) where end - start > (best?.length ?? 0) {
                let run = words[start..<end].joined(separator: " ")
                if hasYear(run), let date = isoDate(run, dayFirst: dayFirst) {
                    best = (end - start, date)
                    break
                }
            }
        }
        return best?.date
    }

    /// Bylines are short; a longer text is prose, not a dateline.
    static let maximumDatelineWords = 40

    /// `text` as ISO 8601 (`2016-05-03`, `2016-05-03T14:58:00`,
    /// `2016-05-03T14:58:00-07:00`, `…Z`), or nil when it is in no known
    /// form. Forms: ISO 8601 and RFC 2822, month names (English and the
    /// corpus's other languages, `MonthNames`), ordinals ("Sep 3rd"),
    /// numeric dates (`+DateForms`: "2021.06.05", "23.08.2021",
    /// "3/14/2021"), CJK dates ("2021年07月09日 08時15分"), 12-hour clocks,
    /// JavaScript's `Date.toString` ("Tue Mar 09 2021 08:15:00 GMT-0500
    /// (Eastern Standard Time)"), offsets and zone abbreviations
    /// (`ZoneAbbreviations`).
    static func isoDate(_ text: String, dayFirst: Bool = false) -> String? {
        // The usual declared form reads as itself (`CanonicalISODate`).
        CanonicalISODate.holds(text) ? text : isoDateByForms(text, dayFirst: dayFirst)
    }

    /// `isoDate` by its forms, word by word.
    static func isoDateByForms(_ text: String, dayFirst: Bool = false) -> String? {
        if let cjk = cjkDate(text) { return cjk }
        let tokens = dateTokens(withoutParentheses(text))
        var year: Int?, month: Int?, day: Int?
        var clock: (hour: Int, minute: Int, second: Int, fraction: String)?
        var offset: String?
        var zoneName: String?
        var index = 0
        var pendingNumbers: [Int] = []
        var yearFirst = false
        while index < tokens.count {
            var token = tokens[index]
            index += 1
            var glued: Bool?
            if token.first?.isASCIIDigit == true, let split = gluedMeridiem(token) { (token, glued) = split }
            if let parts = numericDateParts(token, dayFirst: dayFirst) {
                (year, month, day) = (parts.year, parts.month, parts.day)
            } else if let time = clockTime(token) ?? (day != nil || month != nil ? otherClock(token) : nil) {
                clock = time
                let following = glued ?? (index < tokens.count ? meridiem(tokens[index]) : nil)
                if let isPM = following, var adjusted = clock, (1...12).contains(adjusted.hour) {
                    adjusted.hour = adjusted.hour % 12 + (isPM ? 12 : 0)
                    clock = adjusted
                    if glued == nil { index += 1 }
                }
            } else if let zone = zoneOffset(token), clock != nil || token.count > 1 {
                if clock != nil { offset = zone }
            } else if clock != nil, offset == nil, zoneName == nil, isZoneWord(token) {
                zoneName = token
            } else if let value = MonthNames.number[token.lowercased()] {
                // A second month or year: two dates run together ("March 9,
                // 2021 Updated June 1, 2021"), which make no one date.
                guard month == nil else { return nil }
                month = value
            } else if let number = Int(token), token.count <= 4 {
                if token.count == 4 {
                    guard year == nil else { return nil }
                    year = number
                    yearFirst = pendingNumbers.isEmpty && month == nil
                } else {
                    pendingNumbers.append(number)
                }
            } else if !isWeekday(token) {
                return nil
            }
        }
        if yearFirst, month == nil, day == nil, pendingNumbers.count == 2 {
            // Year, month and day as separate numbers ("2021. 6. 5.", as Korean pages write them).
            (month, day) = (pendingNumbers[0], pendingNumbers[1])
        } else if pendingNumbers.count > 1 {
            // Numbers left over: pieces of another date or a count, not this one's day.
            return nil
        }
        if day == nil, let first = pendingNumbers.first, (1...31).contains(first) { day = first }
        guard let year, let month, let day, (1...12).contains(month), (1...31).contains(day), (1000...9999).contains(year)
        else { return nil }
        if offset == nil, let zoneName {
            guard let zone = ZoneAbbreviations.offset(zoneName, year: year, month: month, day: day) else { return nil }
            offset = zone
        }
        var result = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
        guard let clock, (0...23).contains(clock.hour), (0...59).contains(clock.minute), (0...60).contains(clock.second)
        else { return result }
        result += "T\(pad(clock.hour, 2)):\(pad(clock.minute, 2)):\(pad(clock.second, 2))\(clock.fraction)"
        return result + (offset ?? "")
    }

    /// Words, numbers, clock times and offsets of a date, without its
    /// commas, dots after abbreviations and "at"/"on"/"published" labels;
    /// "2016-05-03T14:58:00-07:00" comes apart into date, time and offset.
    private static func dateTokens(_ text: String) -> [String] {
        var tokens: [String] = []
        for raw in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\u{A0}" }) {
            for piece in splitDashedMonth(String(raw)) ?? splitGlued(String(raw)) {
                var token = piece
                if token.hasSuffix(":") { token.removeLast() }
                if token.hasSuffix("."), token.count >= 2,
                   token.dropLast().allSatisfy(\.isASCIIDigit) || (token.count > 2 && !token.dropLast().contains(".")) {
                    token.removeLast()
                }
                for suffix in ["st", "nd", "rd", "th"] where token.count > 2 && token.lowercased().hasSuffix(suffix)
                    && token.dropLast(2).allSatisfy(\.isASCIIDigit) {
                    token.removeLast(2)
                }
                if token.isEmpty || dateLabels.contains(token.lowercased()) { continue }
                tokens.append(token)
            }
        }
        return tokens
    }

    /// Words around a date that say nothing of it: "Published on", "at",
    /// "le", "de", "um … Uhr", "mis à jour le".
    static let dateLabels: Set<String> = [
        "at", "on", "published", "updated", "posted", "modified", "reviewed", "last", "the", "of", "-", "|", "/", "//", "–", "—", "·", "•",
        "klo", "kl",
        "de", "del", "le", "um", "uhr", "à", "às", "den", "h", "om", "il", "alle", "em",
        "publié", "publiée", "mis", "jour", "publicado", "publicada", "actualizado", "atualizado", "veröffentlicht",
        "aktualisiert", "pubblicato", "aggiornato", "gepubliceerd", "bijgewerkt",
    ]

    /// "2016-05-03T14:58:00Z" → ["2016-05-03", "14:58:00", "Z"]; other tokens as they are.
    private static func splitGlued(_ token: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(token)
        if rest.count > 10, rest.prefix(4).allSatisfy(\.isASCIIDigit), rest.dropFirst(4).first == "-",
           let separator = rest.firstIndex(where: { $0 == "T" || $0 == "t" }) {
            pieces.append(String(rest[..<separator]))
            rest = rest[rest.index(after: separator)...]
        }
        if rest.first?.isASCIIDigit == true, rest.contains(":"),
           let zone = rest.dropFirst().firstIndex(where: { "Zz+-".contains($0) }) {
            pieces.append(String(rest[..<zone]))
            pieces.append(String(rest[zone...]))
        } else {
            pieces.append(String(rest))
        }
        return pieces
    }

    /// "14:58", "14:58:00", "14:58:00.123", with an offset glued on
    /// ("14:58:00Z", "14:58:00-0700") handled by the caller's next token.
    static func clockTime(_ token: String) -> (hour: Int, minute: Int, second: Int, fraction: String)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        var secondText = parts.count == 3 ? String(parts[2]) : "0"
        var fraction = ""
        if let dot = secondText.firstIndex(of: ".") {
            let digits = secondText[secondText.index(after: dot)...]
            guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
            fraction = "." + digits
            secondText = String(secondText[..<dot])
        }
        guard let hour = Int(parts[0]), let minute = Int(parts[1]), let second = Int(secondText),
              parts[0].count <= 2, parts[1].count == 2 else { return nil }
        return (hour, minute, second, fraction)
    }

    /// True for "pm"/"p.m.", false for "am"/"a.m.", nil otherwise.
    static func meridiem(_ token: String) -> Bool? {
        switch token.lowercased().filter({ $0 != "." }) {
        case "pm": true
        case "am": false
        default: nil
        }
    }

    /// "Z", "UTC", "GMT", "+07:00", "-0700", "-500", "GMT-0500" as an
    /// ISO 8601 offset.
    static func zoneOffset(_ token: String) -> String? {
        let upper = token.uppercased()
        if ["Z", "UTC", "GMT"].contains(upper) { return "Z" }
        var signed = Substring(token)
        for prefix in ["GMT", "UTC"] where upper.hasPrefix(prefix) && upper.count > prefix.count {
            signed = signed.dropFirst(prefix.count)
        }
        guard let sign = signed.first, sign == "+" || sign == "-" else { return nil }
        let body = signed.dropFirst()
        guard !body.isEmpty, body.allSatisfy({ $0.isASCIIDigit || $0 == ":" }) else { return nil }
        let digits = body.filter { $0 != ":" }
        let hours: Int?, minutes: Int?
        switch digits.count {
        case 1, 2: (hours, minutes) = (Int(digits), 0)
        case 3: (hours, minutes) = (Int(digits.prefix(1)), Int(digits.suffix(2)))
        case 4: (hours, minutes) = (Int(digits.prefix(2)), Int(digits.suffix(2)))
        default: return nil
        }
        guard let hours, let minutes, hours <= 14, minutes <= 59 else { return nil }
        let total = (hours * 60 + minutes) * (sign == "-" ? -1 : 1)
        return total == 0 ? (sign == "-" ? "-00:00" : "+00:00") : ZoneAbbreviations.isoOffset(minutes: total)
    }

    /// A word that could be a zone abbreviation ("PT", "EDT", "JST"):
    /// two to five capital letters. Whether the table knows it is asked
    /// once the date is known (US generic zones depend on it).
    private static func isZoneWord(_ token: String) -> Bool {
        (2...5).contains(token.count) && token.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    static func isWeekday(_ token: String) -> Bool {
        let lower = token.lowercased()
        return ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].contains { lower.hasPrefix($0) } && token.count <= 9
            || MonthNames.otherWeekdays.contains(lower.hasSuffix(".") ? String(lower.dropLast()) : lower)
    }

    static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
