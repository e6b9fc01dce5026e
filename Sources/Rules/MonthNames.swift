/// English month names, the one table for the date rules (bylines,
/// `published`) and HTTP dates (`Expires`, `Last-Modified`).
package enum MonthNames {
    /// Full names, lowercase, January first.
    static let full = [
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december",
    ]

    /// Three-letter abbreviations, lowercase, January first ("jan", as in
    /// HTTP dates).
    package static let abbreviated = full.map { String($0.prefix(3)) }

    /// Month names in the other languages of the pages linkpeek is tested
    /// on (French, Spanish, German, Italian, Portuguese, Dutch), January
    /// first; full names and the abbreviations no English word shares.
    static let otherLanguages: [[String]] = [
        ["janvier", "janv", "enero", "ene", "januar", "jän", "gennaio", "janeiro", "januari"],
        ["février", "fevrier", "févr", "febrero", "februar", "febbraio", "fevereiro", "februari"],
        ["mars", "marzo", "märz", "mär", "março", "maart", "mrt"],
        ["avril", "avr", "abril", "abr", "aprile"],
        ["mai", "mayo", "maggio", "maio", "mei"],
        ["juin", "junio", "juni", "giugno", "junho"],
        ["juillet", "juil", "julio", "juli", "luglio", "julho"],
        ["août", "aout", "agosto", "augustus"],
        ["septembre", "septiembre", "setiembre", "settembre", "setembro"],
        ["octobre", "octubre", "oktober", "okt", "ottobre", "outubro"],
        ["novembre", "noviembre", "novembro"],
        ["décembre", "decembre", "déc", "diciembre", "dic", "dezember", "dez", "dicembre", "dezembro", "december"],
    ]

    /// Weekday names and abbreviations in the other languages (lowercase,
    /// without a final dot), which pages write before a date ("Di
    /// 09.03.2021", "mardi 9 mars 2021"); English ones are matched by
    /// their first three letters.
    static let otherWeekdays: Set<String> = [
        "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
        "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag", "mo", "di", "mi", "do", "fr", "sa", "so",
        "lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica",
        "segunda-feira", "terça-feira", "quarta-feira", "quinta-feira", "sexta-feira",
        "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
    ]

    /// A lowercase full name or common abbreviation ("sep", "sept") → 1…12.
    static let number: [String: Int] = {
        var numbers: [String: Int] = [:]
        for (index, name) in full.enumerated() {
            numbers[name] = index + 1
            numbers[abbreviated[index]] = index + 1
        }
        numbers["sept"] = 9
        for (index, names) in otherLanguages.enumerated() {
            for name in names { numbers[name] = index + 1 }
        }
        return numbers
    }()
}

/// Days since 1970-01-01 as a proleptic Gregorian date, the one
/// conversion for epoch dates in pages and HTTP dates.
package enum CivilDays {
    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// (year, month, day) of `days` since 1970-01-01 (Howard Hinnant's algorithm).
    package static func date(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
