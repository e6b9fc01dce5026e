/// A request past the check stage: the URL as it is fetched and answered
/// (every answer's `originalURL`), its cache key, and its options as the
/// `[[site]]` rules leave them, with what the cache stage found.
struct CheckedRequest: Sendable {
    let url: String
    let key: CacheKey
    let options: FetchOptions
    let found: CacheLookup?
}

extension LinkPeekEngine {
    /// The check stage: the URL checked (`URLCheck`), the key (the cache
    /// stage's when it built one), a cancelled request stopped, the
    /// `[[site]]` fetch rule applied; or why the URL is not fetched.
    func check(_ request: PreviewRequest) throws(FetchError) -> CheckedRequest {
        let url = try URLCheck.validate(request.url).get()
        guard let key = request.found?.key ?? CacheKey(rawURL: url, language: language(request.options.acceptLanguage))
        else {
            throw .failed(.invalidURL, "\"\(url)\" is not a valid URL.")
        }
        if Task.isCancelled { throw .cancelled }
        let options = try siteFetchOptions(url: url, request.options)
        return CheckedRequest(url: url, key: key, options: options, found: request.found)
    }
}
