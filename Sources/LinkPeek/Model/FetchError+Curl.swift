import Curl

extension FetchError {
    /// The one place a transfer error becomes a fetch error.
    init(_ error: CurlError) {
        switch error.kind {
        case .cancelled: self = .cancelled
        case .timedOut: self = .timedOut
        case .malformedURL: self = .failed(.invalidURL, "the URL is not valid (\(error.detail)).")
        case .unsupportedProtocol:
            self = .failed(.unsupportedScheme, "only http and https URLs can be fetched (\(error.detail)).")
        case .blockedAddress: self = .failed(.blockedAddress, "\(error.detail)\(Self.allowPrivateNetworkHint).")
        case .dns: self = .failed(.dns, "the host name could not be resolved (\(error.detail)).")
        case .connect: self = .failed(.connect, "could not connect to the server (\(error.detail)).")
        case .tls: self = .failed(.tls, "the secure connection failed (\(error.detail)).")
        case .tooManyRedirects: self = .failed(.tooManyRedirects, "too many redirects (\(error.detail)).")
        case .network: self = .failed(.network, "\(error.detail).")
        case .engineStopped: self = .unknown(error.detail)
        }
    }

    /// How a user reaches such an address on purpose, in the names the
    /// protocol and the CLI spell (a refusal is a choice they can change).
    static let allowPrivateNetworkHint =
        "; the allowPrivateNetwork setting (initializationOptions.allowPrivateNetwork, --allow-private-network) allows it"

    static func httpStatus(_ status: Int) -> FetchError {
        .failed(.httpStatus, "the server answered with HTTP status \(status).", status: status)
    }
}
