/// The service's endpoints, by path.
enum Endpoint: String, CaseIterable, Sendable {
    case preview = "/v1/preview"
    case oembed = "/v1/oembed"
    case image = "/v1/image"
    case healthz = "/healthz"
    case readyz = "/readyz"
    case metrics = "/metrics"
    /// Any other path (answered 404).
    case other = ""

    /// The `endpoint` label in `/metrics`.
    var name: String {
        switch self {
        case .preview: "preview"
        case .oembed: "oembed"
        case .image: "image"
        case .healthz: "healthz"
        case .readyz: "readyz"
        case .metrics: "metrics"
        case .other: "other"
        }
    }

    /// Probes answer without a token and outside the per-client limit.
    var isProbe: Bool { self == .healthz || self == .readyz }

    init(path: String) {
        self = Endpoint(rawValue: path) ?? .other
    }
}
