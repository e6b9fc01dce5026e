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

    /// A lowercase full name or common abbreviation ("sep", "sept") → 1…12.
    static let number: [String: Int] = {
        var numbers: [String: Int] = [:]
        for (index, name) in full.enumerated() {
            numbers[name] = index + 1
            numbers[abbreviated[index]] = index + 1
        }
        numbers["sept"] = 9
        return numbers
    }()
}
