/// `window/workDoneProgress/cancel` (notification): cancel the request
/// whose work-done progress uses `token` (a `fetch` or a hover). An unknown
/// or finished token is ignored.
public struct WorkDoneProgressCancelParams: Codable, Sendable, Equatable {
    public static let method = "window/workDoneProgress/cancel"

    public var token: ProgressToken

    public init(token: ProgressToken) {
        self.token = token
    }
}
