extension SavedFailure {
    /// The fields of `error` as `fetch` answers them, kept with a saved link.
    /// (Here, not beside `SavedFailure`: the model's target knows nothing of
    /// how a fetch fails.)
    public init(_ error: FetchError) {
        self.init(kind: error.kind.rawValue, reason: error.reason?.rawValue, message: error.message, status: error.status)
    }
}
