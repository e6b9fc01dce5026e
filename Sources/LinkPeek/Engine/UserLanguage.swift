#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's language as an `Accept-Language` value, from the POSIX locale
/// environment: what a person reading previews in German wants is the German
/// page, as their browser would ask for it.
public enum UserLanguage {
    /// The variables consulted, in POSIX's order of precedence for messages.
    static let variables = ["LC_ALL", "LC_MESSAGES", "LANG"]

    /// The header value for this process's locale (`LC_ALL`, else
    /// `LC_MESSAGES`, else `LANG`; the first that is set and not empty), or
    /// nil when that is `C`, `POSIX`, unset or not a language.
    public static func fromEnvironment() -> String? {
        acceptLanguage(environment: { name in getenv(name).map { String(cString: $0) } })
    }

    /// The same, reading variables through `environment`.
    public static func acceptLanguage(environment: (String) -> String?) -> String? {
        for name in variables {
            guard let value = environment(name), !value.isEmpty else { continue }
            return acceptLanguage(locale: value)
        }
        return nil
    }

    /// A POSIX locale name (`language[_territory][.codeset][@modifier]`) as
    /// an `Accept-Language` value: `de_DE.UTF-8` → `de-DE,de;q=0.9`, `fr` →
    /// `fr`; nil for `C`, `POSIX` (with any codeset) and names that are not
    /// a language (2–3 letters) with an optional territory (2 letters or 3 digits).
    public static func acceptLanguage(locale: String) -> String? {
        var name = Substring(locale)
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        if let dot = name.firstIndex(of: ".") { name = name[..<dot] }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
        guard (1...2).contains(parts.count) else { return nil }
        let language = parts[0]
        guard (2...3).contains(language.utf8.count), language.utf8.allSatisfy(isASCIILetter) else { return nil }
        let lowered = language.lowercased()
        guard parts.count == 2 else { return lowered }
        let territory = parts[1]
        let letters = territory.utf8.count == 2 && territory.utf8.allSatisfy(isASCIILetter)
        let digits = territory.utf8.count == 3 && territory.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        guard letters || digits else { return nil }
        return "\(lowered)-\(territory.uppercased()),\(lowered);q=0.9"
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
