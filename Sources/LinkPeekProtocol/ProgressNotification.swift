/// `$/progress` (notification, daemon → client): progress on a token the
/// client passed to `fetch`. `Value` is a `WorkDoneProgress` for a
/// `workDoneToken`, or the partial `LinkMetadata` for a `partialResultToken`.
public struct ProgressParams<Value: Codable & Sendable>: Codable, Sendable {
    public static var method: String { "$/progress" }

    public var token: ProgressToken
    public var value: Value

    public init(token: ProgressToken, value: Value) {
        self.token = token
        self.value = value
    }
}

extension ProgressParams: Equatable where Value: Equatable {}
