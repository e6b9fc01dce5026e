import FoundationEssentials

/// `publishedTime` as ISO 8601, keeping the page's own offset: pages write
/// "2016-05-03 14:58:00 -0700", "Tue, 03 May 2016 14:58:00 GMT" or "May 3,
/// 2016, 2:58 p.m."; a client should parse one form. A value in none of the
/// forms below is kept as written.
extension MetadataRules {
    /// The date a byline shows in its text ("By Ann Lee · May 3, 2016,
    /// 2:58 p.m.", "Posted on 3 May 2016 by Ann"): the longest run of words
    /// that reads as a whole date. Only bylines are read: elsewhere a date
    /// in the text is as likely an event's as the page's. Of several, the
    /// best-placed (`BodyPlace`), as for `<time>`.
    static func datelineDate(in page: PageIndex) -> (place: BodyPlace, value: Picked<String>)? {
        bestPlaced(in: page) { _, element in
            guard isMarkedByline(element), let text = TextCleaner.clean(element.text), hasYear(text),
                  let date = dateInText(text) else { return nil }
            return Picked(value: date, source: "dateline")
        }
    }

    /// The ISO 8601 form of the longest run of `text`'s words that is a
    /// date with a year, or nil.
    static func dateInText(_ text: String) -> String? {
        let words = text.split { $0 == " " || "|·•—–".contains($0) }.map(String.init)
        guard words.count <= maximumDatelineWords else { return nil }
        var best: (length: Int, date: String)?
        for start in words.indices {
            for end in stride(from: words.count, to: start, by: -1) where end - start > (best?.length ?? 0) {
                let run = words[start..<end].joined(separator: " ")
                if hasYear(run), let date = isoDate(run) {
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
    /// `2016-05-03T14:58:00-07:00`, `…Z`), or nil when it is in no known form.
    static func isoDate(_ text: String) -> String? {
        let tokens = dateTokens(text)
        var year: Int?, month: Int?, day: Int?
        var clock: (hour: Int, minute: Int, second: Int, fraction: String)?
        var offset: String?
        var index = 0
        var pendingNumbers: [Int] = []
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if let parts = isoDateParts(token) {
                (year, month, day) = (parts.0, parts.1, parts.2)
            } else if let time = clockTime(token) {
                clock = time
                if index < tokens.count, let meridiem = meridiem(tokens[index]), var adjusted = clock {
                    adjusted.hour = adjusted.hour % 12 + (meridiem ? 12 : 0)
                    clock = adjusted
                    index += 1
                }
            } else if let zone = zoneOffset(token), clock != nil || token.count > 1 {
                if clock != nil { offset = zone }
            } else if let value = MonthNames.number[token.lowercased()] {
                month = value
            } else if let number = Int(token), token.count <= 4 {
                if token.count == 4 { year = number } else { pendingNumbers.append(number) }
            } else if !isWeekday(token) {
                return nil
            }
        }
        if day == nil, let first = pendingNumbers.first, (1...31).contains(first) { day = first }
        guard let year, let month, let day, (1...12).contains(month), (1...31).contains(day), (1000...9999).contains(year)
        else { return nil }
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
        let labels: Set<String> = ["at", "on", "published", "updated", "posted", "the", "of"]
        var tokens: [String] = []
        for raw in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }) {
            for piece in splitGlued(String(raw)) {
                var token = piece
                if token.hasSuffix("."), token.count > 2, !token.dropLast().contains(".") { token.removeLast() }
                if token.hasSuffix(":") { token.removeLast() }
                for suffix in ["st", "nd", "rd", "th"] where token.count > 2 && token.hasSuffix(suffix)
                    && token.dropLast(2).allSatisfy(\.isASCIIDigit) {
                    token.removeLast(2)
                }
                if token.isEmpty || labels.contains(token.lowercased()) { continue }
                tokens.append(token)
            }
        }
        return tokens
    }

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

    private static func isoDateParts(_ token: String) -> (Int, Int, Int)? {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count <= 2, parts[2].count <= 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        return (year, month, day)
    }

    /// "14:58", "14:58:00", "14:58:00.123", with an offset glued on
    /// ("14:58:00Z", "14:58:00-0700") handled by the caller's next token.
    private static func clockTime(_ token: String) -> (hour: Int, minute: Int, second: Int, fraction: String)? {
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
    private static func meridiem(_ token: String) -> Bool? {
        switch token.lowercased().filter({ $0 != "." }) {
        case "pm": true
        case "am": false
        default: nil
        }
    }

    /// "Z", "UTC", "GMT", "+07:00", "-0700" as an ISO 8601 offset.
    private static func zoneOffset(_ token: String) -> String? {
        let upper = token.uppercased()
        if ["Z", "UTC", "GMT"].contains(upper) { return "Z" }
        guard let sign = token.first, sign == "+" || sign == "-" else { return nil }
        let digits = token.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return "\(sign)\(digits.prefix(2)):\(digits.suffix(2))"
    }

    private static func isWeekday(_ token: String) -> Bool {
        ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].contains { token.lowercased().hasPrefix($0) } && token.count <= 9
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
