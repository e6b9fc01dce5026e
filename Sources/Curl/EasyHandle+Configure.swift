internal import CCurl

extension EasyHandle {
    /// The `Accept-Encoding` of every request: what `ContentDecoder` undoes.
    /// Not br or zstd, which this libcurl could decode but only in full,
    /// chunk by chunk, and on through a drain: linkpeek asks only for what
    /// it can stop inflating where its consumer stops reading.
    static let acceptEncoding = "gzip, deflate"

    /// Sets every option a linkpeek transfer uses.
    /// `isolated`: the request's `ConnectionProfile` is not the engine's, so
    /// it neither reuses a connection nor leaves one behind.
    func configure(
        for transfer: Transfer, userdata: UnsafeMutableRawPointer, share: CurlShare?, isolated: Bool
    ) -> Result<Void, CurlError> {
        let request = transfer.request
        let steps: [() -> Result<Void, CurlError>] = [
            { self.set(CURLOPT_URL, transfer.hopURL) },
            // DNS and TLS sessions shared across the engine's loops (see `CurlShare`).
            { share.map { self.set(CURLOPT_SHARE, pointer: $0.handle) } ?? .success(()) },
            { isolated ? self.set(CURLOPT_FRESH_CONNECT, 1) : .success(()) },
            { isolated ? self.set(CURLOPT_FORBID_REUSE, 1) : .success(()) },
            // Only http and https, for the first URL and for every redirect.
            { self.set(CURLOPT_PROTOCOLS_STR, "http,https") },
            { self.set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https") },
            // With a proxy each hop is checked before it is sent, and with a
            // `HopRule` each is sent as its own host's rule says: the engine follows them.
            // A request with a body follows no redirect: the 3xx is its answer
            // (a body never goes to a second URL, nor a GET made of it).
            { self.set(CURLOPT_FOLLOWLOCATION, transfer.followsRedirectsItself || request.body != nil ? 0 : 1) },
            { self.set(CURLOPT_MAXREDIRS, request.maxRedirects) },
            { request.body.map { self.set(postBody: $0.bytes) } ?? .success(()) },
            { self.set(CURLOPT_USERAGENT, request.userAgent) },
            // Only the codings linkpeek decodes itself, as far as it reads
            // (`Transfer+Decoding`); curl passes the body on as sent.
            { self.set(CURLOPT_ACCEPT_ENCODING, EasyHandle.acceptEncoding) },
            { self.set(CURLOPT_HTTP_CONTENT_DECODING, 0) },
            { self.set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)) },
            // HTTPS may be HTTP/2: wait for a connection being made to this host
            // and multiplex on it rather than open another. (Plain http is
            // HTTP/1.1 here, where waiting would only serialise.)
            { self.set(CURLOPT_PIPEWAIT, transfer.mayMultiplex ? 1 : 0) },
            { self.set(CURLOPT_TIMEOUT_MS, transfer.hopMilliseconds) },
            { self.set(CURLOPT_CONNECTTIMEOUT_MS, TransferRequest.milliseconds(request.connectTimeout)) },
            // Signals are no way to time out a resolver on a multi-threaded process.
            { self.set(CURLOPT_NOSIGNAL, 1) },
            // Only the proxy linkpeek chose (none: "", so that curl does not
            // read the environment itself); `no_proxy` was applied in choosing.
            { self.set(CURLOPT_PROXY, request.proxies.proxy(for: transfer.hopURL) ?? "") },
            { self.set(CURLOPT_NOPROXY, "") },
            // The request's headers go to the server only, never in a proxy's CONNECT.
            { self.set(CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE)) },
            { self.set(CURLOPT_HEADERFUNCTION, callback: TransferCallbacks.header) },
            { self.set(CURLOPT_HEADERDATA, pointer: userdata) },
            { self.set(CURLOPT_WRITEFUNCTION, callback: TransferCallbacks.body) },
            { self.set(CURLOPT_WRITEDATA, pointer: userdata) },
            { self.set(openSocket: TransferCallbacks.openSocket) },
            { self.set(CURLOPT_OPENSOCKETDATA, pointer: userdata) },
            { self.set(CURLOPT_PRIVATE, pointer: userdata) },
            // The progress callback, only to learn when the request is sent (`Transfer.noteProgress`).
            { self.set(transferInfo: TransferCallbacks.progress) },
            { self.set(CURLOPT_XFERINFODATA, pointer: userdata) },
            { self.set(CURLOPT_NOPROGRESS, 0) },
            { self.set(resolve: request.nameOverrides) },
            // Verification stays on (curl's default); these only choose whom to trust.
            { request.caFile.map { self.set(CURLOPT_CAINFO, $0) } ?? .success(()) },
            { request.caPath.map { self.set(CURLOPT_CAPATH, $0) } ?? .success(()) },
            // An https:// proxy is verified against the same CAs.
            { request.caFile.map { self.set(CURLOPT_PROXY_CAINFO, $0) } ?? .success(()) },
            { request.caPath.map { self.set(CURLOPT_PROXY_CAPATH, $0) } ?? .success(()) },
            {
                self.set(headers: ["Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"]
                    + (request.body.map { ["Content-Type: \($0.contentType)"] } ?? []) + request.headers)
            },
        ]
        for step in steps {
            if case .failure(let error) = step() { return .failure(error) }
        }
        return .success(())
    }
}

extension Transfer {
    /// What a finished transfer means: stopping on purpose (the consumer had
    /// enough, or the byte cap) is success; a refused address is named as such.
    func outcome(of code: CURLcode) -> Result<Void, CurlError> {
        // An unknown coding, or bytes that are not of theirs: ended by the body callback.
        if let decodingFailure, code == CURLE_WRITE_ERROR { return .failure(decodingFailure) }
        if code == CURLE_OK || ((stoppedEarly || truncated) && code == CURLE_WRITE_ERROR) {
            return .success(())
        }
        if let address = refusedAddress, code == CURLE_COULDNT_CONNECT {
            return .failure(CurlError(
                kind: .blockedAddress, code: Int32(code.rawValue),
                detail: "refused to connect to \(address), a loopback, private or reserved address"))
        }
        return .failure(CurlError(code: code, buffer: easy?.errorText ?? ""))
    }
}
