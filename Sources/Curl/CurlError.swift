internal import CCurl

/// A failed transfer: libcurl's result code, curl's own text for it, and what
/// linkpeek knows besides (a refused address, a cancel).
public struct CurlError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in the categories linkpeek reports.
    public enum Kind: String, Sendable {
        case cancelled, timedOut, malformedURL, unsupportedProtocol, blockedAddress
        case dns, connect, tls, tooManyRedirects, network, engineStopped
    }

    public var kind: Kind
    /// libcurl's `CURLcode`, 0 for errors that did not come from curl.
    public var code: Int32
    /// curl's error-buffer text, or a sentence of ours.
    public var detail: String

    public init(kind: Kind, code: Int32 = 0, detail: String) {
        self.kind = kind
        self.code = code
        self.detail = detail
    }

    public var description: String { detail }

    public static let cancelled = CurlError(kind: .cancelled, detail: "transfer cancelled")

    /// Classifies a `CURLcode`, preferring the error buffer's text over the
    /// generic `curl_easy_strerror` sentence.
    init(code: CURLcode, buffer: String) {
        let text = buffer.isEmpty ? String(cString: curl_easy_strerror(code)) : buffer
        let kind = Self.kind(of: code)
        self.init(kind: kind, code: Int32(code.rawValue), detail: kind == .tls ? Self.namingTLSCheck(text) : text)
    }

    private static func kind(of code: CURLcode) -> Kind {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: .timedOut
        case CURLE_URL_MALFORMAT: .malformedURL
        case CURLE_UNSUPPORTED_PROTOCOL: .unsupportedProtocol
        case CURLE_COULDNT_RESOLVE_HOST: .dns
        case CURLE_COULDNT_CONNECT: .connect
        case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED:
            .tls
        default: .network
        }
    }
}
