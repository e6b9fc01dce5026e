import FoundationEssentials

/// Checks a URL before any work is done on it.
enum URLCheck {
    /// The URL to fetch, or why it cannot be fetched.
    static func validate(_ string: String) -> Result<String, FetchError> {
        let trimmed = string.trimmedWhitespace
        guard !trimmed.isEmpty else { return .failure(.failed(.invalidURL, "the URL is empty.")) }
        guard let colon = trimmed.firstIndex(of: ":") else {
            return .failure(.failed(.invalidURL, "\"\(trimmed)\" is not an absolute URL."))
        }
        let scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(.failed(.unsupportedScheme, "only http and https URLs can be fetched, not \(scheme):."))
        }
        guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty else {
            return .failure(.failed(.invalidURL, "\"\(trimmed)\" is not a valid URL."))
        }
        return .success(trimmed)
    }
}
