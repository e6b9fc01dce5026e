import FoundationEssentials
import TextTrimming

/// Checks a URL before any work is done on it.
enum URLCheck {
    /// Bytes a URL may have (as `ParamRanges.maxURLBytes` on the wire).
    static let maxBytes = 65_536

    /// The URL to fetch, or why it cannot be fetched.
    static func validate(_ string: String) -> Result<String, FetchError> {
        let trimmed = string.trimmedWhitespace
        guard !trimmed.isEmpty else { return .failure(.failed(.invalidURL, "the URL is empty.")) }
        guard trimmed.utf8.count <= maxBytes else {
            return .failure(.failed(.invalidURL, "the URL is longer than \(maxBytes) bytes."))
        }
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
