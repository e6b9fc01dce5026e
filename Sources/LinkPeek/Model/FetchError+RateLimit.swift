extension FetchError.Reason {
    /// The host answered 429 or 503 with `Retry-After`, or did so recently
    /// and is being left alone (`HostBackoff`); `retryAfter` says how long.
    public static let rateLimited = FetchError.Reason(rawValue: "rateLimited")
}

extension FetchError {
    /// A host that asked to be left alone for `seconds` more; `status` when
    /// this response said so (429 or 503), nil when an earlier one did.
    /// `image`: said by an image fetch (`getMedia`, thumbnails).
    static func rateLimited(host: String, seconds: Int, status: Int?, image: Bool = false) -> FetchError {
        let wait = seconds == 1 ? "1 second" : "\(seconds) seconds"
        let said = status.map { " (HTTP \($0))" } ?? ""
        let detail = "\(host) asked linkpeek to slow down\(said); it is not asked again for \(wait)."
        var error = image
            ? FetchError.image(.rateLimited, detail, status: status) : .failed(.rateLimited, detail, status: status)
        error.retryAfter = seconds
        return error
    }
}
