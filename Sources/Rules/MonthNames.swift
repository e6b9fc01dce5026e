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
