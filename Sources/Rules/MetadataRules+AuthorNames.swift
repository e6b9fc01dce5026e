import FoundationEssentials
import TextTrimming

/// Authors as people write them: the names in a credit line, without the
/// words around them ("By", "Par", a date, "5 min read", an @handle, a job
/// title), one entry per person.
extension MetadataRules {
    /// What credit lines start with, in the corpus's languages (lowercase,
    /// each followed by a space or a colon): English, French, Spanish and
    /// Portuguese, German, Italian, Dutch, the Scandinavian languages,
    /// Chinese and Japanese.
    static let bylinePrefixes = [
        "written by", "posted by", "story by", "words by", "text by", "reporting by", "by", "text", "words",
        "par", "por", "von", "di", "door", "av", "af", "author", "autor", "auteur", "autore", "texto", "reporter", "contributor",
        "文", "作者", "著者", "撰文", "記者", "文・",
    ]

    /// Credit lines for other roles: what follows them is no author.
    static let otherRoleLabels = [
        "illustrated by", "illustration by", "illustrations by", "illustration:", "illustrations:",
        "photos by", "photo by", "photographs by", "photography by", "photo:", "photos:",
        "translated by", "translation by", "translation:", "edited by", "editor:", "edited:",
        "video by", "graphics by", "additional reporting by", "contributing:", "with reporting by",
        "traduit par", "traducido por", "übersetzt von", "tradotto da", "vertaald door", "illustré par",
        "editing by", "foto:", "fotos:", "fotografía:", "ilustración:",
        "イラスト", "写真", "撮影", "翻訳", "編集：", "編集/", "編集／", "插图", "摄影",
    ]

    /// Words that make a comma-separated part of a credit a job title or
    /// desk, not a person ("Ann Lee, Senior Editor", "Bo Kim, Staff Writer").
    static let jobTitleWords: Set<String> = [
        "editor", "reporter", "correspondent", "writer", "columnist", "contributor", "producer", "analyst",
        "director", "senior", "chief", "staff", "deputy", "associate", "managing", "executive", "editorial",
        "journalist", "photographer", "critic", "desk", "bureau", "contributing", "news", "team", "intern",
        "founder", "ceo", "head", "lead", "manager", "professor", "md", "phd",
        "vice", "president", "vp", "svp", "evp", "officer", "general", "partner", "engineer", "scientist",
        "reports", "wire", "services",
        // The newsroom as a whole, in the corpus's other languages.
        "redactie", "redaktion", "redacción", "redaccion", "rédaction", "redazione", "redação", "redacao",
    ]

    /// News agencies as credit lines write them after a reporter's name
    /// ("By JANE DOE Associated Press", "Jane Doe / AFP", "Jane Doe
    /// (Reuters)", "Anna Schmidt, dpa"): the wire the story came over, not
    /// an author. The well-known wires of the corpus's languages; an
    /// acronym of three letters or fewer matches only as written ("AP",
    /// "dpa"), longer names in any case. Kept when it is the whole credit.
    static let newsAgencies: [String] = [
        "The Associated Press", "Associated Press", "AP", "Reuters", "AFP", "Agence France-Presse", "Bloomberg News", "Bloomberg",
        "dpa", "DPA", "EFE", "Agencia EFE", "Europa Press", "ANSA", "Lusa", "ANP", "Belga", "APA", "Keystone-SDA", "NTB", "TT",
        "Ritzau", "PA Media", "PA", "Press Association", "The Canadian Press", "Canadian Press", "AAP", "UPI", "Kyodo News",
        "Kyodo", "Jiji Press", "Yonhap", "Xinhua", "PTI", "IANS", "ANI", "TASS", "Anadolu",
    ]

    /// `newsAgencies` as words, longest first, with whether each matches
    /// in any case.
    private static let agencyWords: [(words: [String], anyCase: Bool)] = newsAgencies
        .map { ($0.split(separator: " ").map(String.init), $0.count > 3) }
        .sorted { $0.words.count > $1.words.count }

    /// True when `text` is a news agency's name alone (`newsAgencies`).
    static func isNewsAgency(_ text: String) -> Bool {
        let words = text.split(separator: " ").map { String($0).trimmingScalars { "()".unicodeScalars.contains($0) } }
        return agencyWords.contains { agencyMatches($0, words[...]) }
    }

    private static func agencyMatches(_ agency: (words: [String], anyCase: Bool), _ words: ArraySlice<String>) -> Bool {
        guard agency.words.count == words.count else { return false }
        return zip(agency.words, words).allSatisfy { expected, word in
            word == expected || agency.anyCase && word.lowercased() == expected.lowercased()
        }
    }

    /// A name's words without an agency after them ("JANE DOE Associated
    /// Press", "Jane Doe / AFP", "Jane Doe (AP)"), when two words of the
    /// name are left.
    private static func withoutTrailingAgency(_ words: [String]) -> [String] {
        let bare = words.map { $0.trimmingScalars { "(),".unicodeScalars.contains($0) } }
        for agency in agencyWords where agency.words.count + 2 <= words.count
            && agencyMatches(agency, bare.suffix(agency.words.count)) {
            var rest = Array(words.dropLast(agency.words.count))
            while let last = rest.last, ["/", "|", "-", "–", "—", "·", "•"].contains(last) { rest.removeLast() }
            if rest.count >= 2 { return rest }
        }
        return words
    }

    /// Degrees written after a name ("Ann Lee, Ph.D."), letters only.
    static let degreeWords: Set<String> = ["phd", "md", "mba", "dphil", "msc", "rn"]

    /// Interface words that sit in or beside bylines and are no names.
    static let interfaceWords: Set<String> = [
        "write", "see all", "follow", "following", "read more", "more", "view profile", "profile", "subscribe",
        "share", "email", "contact", "bio", "close", "menu", "show more", "load more", "view all", "all articles",
        "more articles", "follow us", "sign in", "log in", "login", "more from this author", "more from", "more by",
        "all posts", "view all posts",
    ]

    /// Generic credits that name no person ("Staff", "News Desk"): a
    /// visible byline that names one wins over them.
    static func isGenericCredit(_ name: String, siteNames: [String]) -> Bool {
        let folded = foldedName(name)
        if siteNames.contains(where: { let site = foldedName($0); return !site.isEmpty && (site == folded || folded.hasPrefix(site)) }) {
            return true
        }
        // An editorial desk in Japanese or Chinese ("アクメ編集部", "编辑部").
        if ["編集部", "编辑部", "編輯部"].contains(where: { name.hasSuffix($0) }) || isNewsAgency(name) { return true }
        let words = ASCIIText.lowercasedLetterRuns(name) ?? name.lowercased().split { !$0.isLetter }.map(String.init)
        return !words.isEmpty && words.allSatisfy {
            jobTitleWords.contains($0) || ["the", "and", "of", "for", "la", "le", "l", "die", "de", "el", "a"].contains($0)
        }
    }

    /// The people a credit line names, in order, each once: "By Ann Lee
    /// and Bo Kim · 5 min read" → ["Ann Lee", "Bo Kim"]. Empty when it
    /// names none (a label, a URL, a handle alone, interface text).
    static func authorNames(_ raw: String?) -> [String] {
        guard var text = TextCleaner.clean(raw), !looksLikeURL(text) else { return [] }
        text = withoutOtherRoles(text)
        text = withoutDatedLead(text)
        text = withoutBylinePrefix(text)
        text = withoutTrailingDate(firstBylineSegment(text))
        var names: [String] = []
        for part in splitAuthors(text) {
            let name = withoutTrailingNoise(withoutBylinePrefix(part))
            guard !name.isEmpty, !interfaceWords.contains(name.lowercased()), !looksLikeURL(name), !name.hasPrefix("@"),
                  !names.contains(name), !isDateLabelOnly(name) else { continue }
            names.append(name)
        }
        // An agency credited beside people ("Jane Doe, Associated Press") is their source.
        let people = names.filter { !isNewsAgency($0) }
        return withoutTitlesBesidePeople(people.isEmpty ? names : people)
    }

    /// Only the words that lead a date ("publié le" left of "Par Jean
    /// Dupont, publié le 09/03/2021" once the date is cut).
    static func isDateLabelOnly(_ name: String) -> Bool {
        let words = name.lowercased().split(separator: " ")
        return !words.isEmpty && words.allSatisfy { dateLabels.contains(String($0)) }
    }

    /// A job title beside a name goes ("Ann Lee" and "Senior Editor", from
    /// one credit line or from a byline box's separate elements); a credit
    /// that is only a title ("Staff") stays, for the caller to weigh.
    static func withoutTitlesBesidePeople(_ names: [String]) -> [String] {
        let people = names.filter { !isJobTitle($0) }
        return people.isEmpty ? names : people
    }

    /// The credit without a leading "By", "Par", "作者：" …, also glued to
    /// the name as some templates write it ("ByJane Doe").
    static func withoutBylinePrefix(_ text: String) -> String {
        let lower = text.lowercased()
        for prefix in bylinePrefixes where lower.hasPrefix(prefix) {
            let rest = text.dropFirst(prefix.count)
            guard let next = rest.first else { continue }
            let isCJKPrefix = prefix.unicodeScalars.contains { $0.value >= 0x3000 }
            if next == " " || next == ":" || next == "：" || next == "\u{A0}" || next == "|" || next == "／" || isCJKPrefix {
                return String(rest).trimmingScalars { String.isSpace($0) || ":：|/／・".unicodeScalars.contains($0) }
            }
            // "ByJane Doe": a capital right after "By" starts the name; after
            // "BY", a capital and a small letter ("BYJane Doe").
            if prefix == "by", text.hasPrefix("By"), next.isUppercase { return String(rest) }
            if prefix == "by", text.hasPrefix("BY"), next.isUppercase, rest.dropFirst().first?.isLowercase == true {
                return String(rest)
            }
        }
        return text
    }

    /// The credit after a date that leads it ("Posted on March 9, 2021 by
    /// Ann Lee" → "Ann Lee"): what comes before the last " by " when it
    /// holds a whole date.
    private static func withoutDatedLead(_ text: String) -> String {
        guard hasYear(text), let by = text.lowercased().ranges(of: " by ").last else { return text }
        let offset = text.lowercased().distance(from: text.lowercased().startIndex, to: by.lowerBound)
        let lead = String(text.prefix(offset))
        guard hasYear(lead), dateInText(lead) != nil else { return text }
        return String(text.dropFirst(offset + " by ".count))
    }

    /// The credit up to the first other role ("Ann Lee. Illustrations by Bo
    /// Kim" → "Ann Lee.").
    private static func withoutOtherRoles(_ text: String) -> String {
        let lower = text.lowercased()
        var cut = lower.endIndex
        for label in otherRoleLabels where mayHold(lower, label) {
            guard let range = lower.firstRange(of: label) else { continue }
            let atWordStart = range.lowerBound == lower.startIndex
                || lower[lower.index(before: range.lowerBound)].isLetter == false
            if atWordStart, range.lowerBound < cut { cut = range.lowerBound }
        }
        guard cut != lower.endIndex else { return text }
        let offset = lower.distance(from: lower.startIndex, to: cut)
        return String(text.prefix(offset)).trimmingScalars { String.isSpace($0) || ".,;|·•-–—".unicodeScalars.contains($0) }
    }

    /// False only when `text` cannot hold `piece` as `firstRange(of:)` and
    /// `split(separator:)` find it (`ASCIIText.mayHold`). That generic
    /// search builds a table on every call, and every credit line is
    /// searched for some forty pieces, most of them absent: a few percent
    /// of a fetch's CPU.
    static func mayHold(_ text: String, _ piece: String) -> Bool {
        ASCIIText.mayHold(text, piece)
    }

    /// "Ann Lee, Bo Kim and Cy Dow" → three parts; also "&", "y", "et",
    /// "und", "e", "en", "og", "och", "、" and ";". A comma part of one word
    /// ("Lee, Ann" in a catalogue) would cut a name: such a credit stays whole.
    private static func splitAuthors(_ text: String) -> [String] {
        var parts = [text]
        for separator in [" and ", " AND ", " & ", " y ", " et ", " und ", " e ", " en ", " og ", " och ", "、", ";", " và "] {
            parts = parts.flatMap { part in
                !part.isEmpty && !mayHold(part, separator) ? [part] : part.split(separator: separator).map(String.init)
            }
        }
        parts = parts.flatMap(splitAtJapaneseAnd)
        parts = parts.map(withoutPlaceAfterName)
        let byComma = parts.flatMap { $0.split(separator: ",").map(String.init) }
            .map(\.trimmedSpaces).filter { !$0.isEmpty }
        if byComma.count > parts.count, byComma.allSatisfy({ $0.contains(" ") || isJobTitle($0) || $0.unicodeScalars.contains { $0.value >= 0x3000 } }) {
            // After a job title come the person's team or employer ("Ann
            // Lee, Vice President, Acme Cloud"), not another person.
            parts = parts.flatMap { part in
                let pieces = part.split(separator: ",").map { String($0).trimmedSpaces }.filter { !$0.isEmpty }
                guard let title = pieces.firstIndex(where: isJobTitle), title > 0 else { return pieces }
                return Array(pieces[...title])
            }
        }
        return parts.map(\.trimmedSpaces).filter { !$0.isEmpty }
    }

    /// "山田太郎と鈴木花子" → two names: Japanese joins two people with と.
    /// Only between kanji or katakana on both sides, each name two
    /// characters or more: と inside a name is written among hiragana
    /// ("さとみ").
    private static func splitAtJapaneseAnd(_ part: String) -> [String] {
        guard part.contains("と") else { return [part] }
        let characters = Array(part)
        var pieces: [String] = []
        var start = 0
        for index in characters.indices.dropFirst().dropLast() where characters[index] == "と" {
            guard index - start >= 2, isKanjiOrKatakana(characters[index - 1]), isKanjiOrKatakana(characters[index + 1]) else { continue }
            pieces.append(String(characters[start..<index]))
            start = index + 1
        }
        guard !pieces.isEmpty, characters.count - start >= 2 else { return [part] }
        pieces.append(String(characters[start...]))
        return pieces
    }

    private static func isKanjiOrKatakana(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return (0x4E00...0x9FFF).contains(scalar.value) || (0x30A0...0x30FF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }

    /// A full name followed by one-word parts after commas: those are the
    /// place or the agency the person writes from ("Ann Lee, Washington",
    /// "Ann Lee, Reuters"), not people, whose names have two words; so is
    /// a part that says whom the person writes for ("Ann Lee, Special to
    /// Acme", "Ann Lee, for Acme"). A catalogue's "Lee, Ann" (one word
    /// first) stays whole.
    private static func withoutPlaceAfterName(_ part: String) -> String {
        guard part.contains(",") else { return part }
        let pieces = part.split(separator: ",").map { String($0).trimmedSpaces }
        guard pieces.count >= 2, isWrittenAsName(pieces[0]), !pieces[0].unicodeScalars.contains(where: { $0.value >= 0x3000 })
        else { return part }
        let isPlace = { (piece: String) in
            !piece.contains(" ") && piece.first?.isUppercase == true && piece.allSatisfy(\.isLetter) && !isJobTitle(piece)
        }
        let isAffiliation = { (piece: String) in ["special to ", "for "].contains { piece.lowercased().hasPrefix($0) } }
        return ([pieces[0]] + pieces.dropFirst().filter { !isPlace($0) && !isAffiliation($0) }).joined(separator: ", ")
    }

    /// Units of a reading time or a relative time after a count ("5 min
    /// read", "2 days ago").
    static let timeUnitWords: Set<String> = [
        "sec", "secs", "second", "seconds", "min", "mins", "minute", "minutes", "hr", "hrs", "hour", "hours",
        "day", "days", "week", "weeks", "month", "months", "year", "years",
    ]

    /// A name without what templates glue after it: an @handle (also in
    /// parentheses), a reading time or a relative time ("2 days ago"), a
    /// date, "Follow", the place written from ("Ann Lee in London").
    private static func withoutTrailingNoise(_ name: String) -> String {
        var words = name.split(separator: " ").map(String.init)
        // An @handle, or an e-mail address ("ann@example.com").
        if let handle = words.firstIndex(where: { word in
            (word.hasPrefix("@") || word.hasPrefix("(@")) && word.count > 2
                || word.dropFirst().contains("@") && word.contains(".")
        }), handle > 0 {
            words = Array(words[..<handle])
        }
        words = withoutTrailingAgency(words)
        if let unit = words.indices.first(where: { $0 > 0 && timeUnitWords.contains(words[$0].lowercased()) && words[$0 - 1].allSatisfy(\.isASCIIDigit) }) {
            words = Array(words[..<(unit - 1)])
        }
        if let place = words.firstIndex(of: "in"), place >= 2, (1...3).contains(words.count - place - 1),
           isWrittenAsName(words[..<place].joined(separator: " ")),
           words[(place + 1)...].allSatisfy({ $0.first?.isUppercase == true }) {
            words = Array(words[..<place])
        }
        while let last = words.last, ["follow", "following", "updated", "published", "on", "at", "-", "–", "—"].contains(last.lowercased()) {
            words.removeLast()
        }
        // A job title run on after the name, where markup parted them
        // ("Jane Doe<br>Senior Reporter"): a rank before a role noun, last.
        // Without a rank the words may be a desk's name ("Acme Business
        // News Correspondent"), which stays whole.
        if words.count >= 4, let last = words.last, roleNouns.contains(last.lowercased()) {
            var cut = words.count - 1
            while cut > 2, titleRankWords.contains(words[cut - 1].lowercased()) { cut -= 1 }
            if cut < words.count - 1, isWrittenAsName(words[..<cut].joined(separator: " ")),
               !words[..<cut].contains(where: { jobTitleWords.contains($0.lowercased()) }) {
                words = Array(words[..<cut])
            }
        }
        // A CJK title after the name ("山田太郎 記者", "홍길동 기자").
        if let last = words.last, let title = cjkTitleSuffixes.first(where: { last.hasSuffix($0) }) {
            let name = String(last.dropLast(title.count))
            if name.isEmpty, words.count >= 2 { words.removeLast() } else if !name.isEmpty { words[words.count - 1] = name }
        }
        // "Jane DoeFollow": a button's word glued to the name by markup
        // that puts no space between them.
        if let last = words.last, words.count >= 2 {
            for button in ["Following", "Follow"] where last.hasSuffix(button) && last.count > button.count
                && last.dropLast(button.count).last?.isLowercase == true {
                words[words.count - 1] = String(last.dropLast(button.count))
                break
            }
        }
        var result = words.joined(separator: " ")
        if let date = firstDateWord(in: words), date > 0 { result = words[..<date].joined(separator: " ") }
        return result.trimmingScalars { String.isSpace($0) || "-–—•|·,:".unicodeScalars.contains($0) }
    }

    /// Where a date starts among a name's words ("Ann Lee March 9, 2021",
    /// "Ann Lee on Tuesday, March 9, 2021 8:15 PM"): the first word that
    /// can begin a date (a number, a month or weekday name, a label such as
    /// "on") from which the rest reads as one. A name's own word never
    /// starts it, though a CJK date reads through words before it.
    private static func firstDateWord(in words: [String]) -> Int? {
        guard words.count > 2, hasYear(words.joined(separator: " ")) else { return nil }
        for start in 1..<words.count where canBeginDate(words[start]) && isoDate(words[start...].joined(separator: " ")) != nil {
            return start
        }
        return nil
    }

    private static func canBeginDate(_ word: String) -> Bool {
        let lower = word.lowercased().trimmingScalars { ",.:".unicodeScalars.contains($0) }
        return word.first?.isNumber == true || MonthNames.number[lower] != nil
            || isWeekday(lower) || dateLabels.contains(lower)
    }

    /// A credit line without the date after its names ("Ann Lee on
    /// Tuesday, March 9, 2021 8:15 PM"), before the names are parted at
    /// commas that belong to the date.
    private static func withoutTrailingDate(_ text: String) -> String {
        guard hasYear(text) else { return text }
        let words = text.split(separator: " ").map(String.init)
        guard let start = firstDateWord(in: words) else { return text }
        return words[..<start].joined(separator: " ")
    }

    /// True when every word is a job-title word ("Senior Editor", "Staff"),
    /// or a beat or desk comes before a role noun ("Transport
    /// Correspondent", "Political Editor", "Chief Science Writer").
    static func isJobTitle(_ text: String) -> Bool {
        let words = ASCIIText.lowercasedLetterRuns(text) ?? text.lowercased().split { !$0.isLetter }.map(String.init)
        // A degree written with dots ("Ph.D.") is one word.
        if degreeWords.contains(words.joined()) { return true }
        if (2...4).contains(words.count), let last = words.last, roleNouns.contains(last) { return true }
        return !words.isEmpty && words.allSatisfy { jobTitleWords.contains($0) || ["of", "the", "for", "and", "at"].contains($0) }
    }

    /// Ranks written before a role noun ("Senior Reporter", "Staff Writer").
    static let titleRankWords: Set<String> = [
        "senior", "chief", "staff", "deputy", "associate", "managing", "executive", "contributing", "special", "lead",
    ]

    /// Titles that CJK credits write after the name: reporter (記者,
    /// 记者, 기자), correspondent (特派員, 특파원).
    static let cjkTitleSuffixes = ["記者", "记者", "기자", "特派員", "특파원"]

    /// The nouns that end a job title whatever beat or desk comes before
    /// them; no name ends with them.
    static let roleNouns: Set<String> = [
        "editor", "correspondent", "reporter", "writer", "columnist", "critic", "journalist", "producer", "photographer",
        "contributor", "analyst", "intern",
    ]
}
