internal import CCurl
import TextTrimming

/// Keeping a connection when a transfer stops early.
///
/// A transfer that stops before its response ends makes curl close the
/// connection: the rest of the response is still on its way, so the
/// connection cannot carry another request. When the rest is small and its
/// size known (`Content-Length`), reading it to the end is cheaper than the
/// next request's new TCP (and TLS) handshake: the transfer then *drains*.
/// Its caller gets the result at once, as if it had stopped; the bytes that
/// follow go nowhere (not to the consumer, not into `bytesRead`, not
/// through the inflater: they are read as sent), and when
/// the response ends the connection goes back to the loop's pool. A drain
/// that takes longer than `drainMilliseconds` is ended by the loop, which
/// closes the connection as a stop would have.
///
/// The address policy still holds: a kept connection only serves requests
/// with the profile it was opened under (`ConnectionProfile`). The slot the
/// transfer holds in the limits is given back when the drain ends.
extension Transfer {
    /// The most of a response read past an early stop to keep its connection.
    static let drainBytes: Int64 = 64 * 1024
    /// The most of an encoded (gzip, deflate) response read past an early
    /// stop. The rest is read as sent, never inflated (`Transfer+Decoding`),
    /// so it costs what an unencoded rest of the same size costs: the limit
    /// is `drainBytes`. (While curl decoded, it inflated what it drained,
    /// and this was 16 KiB.) Measured on `bench_fetch.py`'s issue set (500
    /// pages, 242 gzip): 0.18 new connections a page at c1 and c16 instead
    /// of 0.28, and `inflate` 0.67 instead of 0.82 M instructions a page.
    static let encodedDrainBytes: Int64 = drainBytes

    /// True when the response declares a content encoding other than identity.
    var hasContentEncoding: Bool {
        guard let coding = fields["content-encoding"]?.trimmedASCIIWhitespace.lowercased() else { return false }
        return !coding.isEmpty && coding != "identity"
    }

    /// How long a drain may take before the connection is given up.
    static let drainMilliseconds = 1_000

    /// Stops the transfer on the consumer's word: true when it drains (the
    /// callback must take the bytes), false when curl must stop it now.
    func stopOrDrain() -> Bool {
        stoppedEarly = true
        let limit = hasContentEncoding ? Self.encodedDrainBytes : Self.drainBytes
        guard let rest = remainingResponseBytes, rest <= limit else { return false }
        draining = true
        drainDeadline = .now + .milliseconds(Self.drainMilliseconds)
        complete(.success(()))
        return true
    }

    /// Bytes of this response's body still to come, when known and the
    /// connection could carry another request after them: HTTP/1.1 (or 1.0
    /// with `Connection: keep-alive`) with a `Content-Length`, and no
    /// `Connection: close`. (HTTP/2 ends a stream without closing its
    /// connection; an unknown length ends with the connection.)
    private var remainingResponseBytes: Int64? {
        let connection = fields["connection"] ?? ""
        guard let easy, let version = easy.long(CURLINFO_HTTP_VERSION), !connection.containsIgnoringASCIICase("close"),
            version == Int(CURL_HTTP_VERSION_1_1)
                || (version == Int(CURL_HTTP_VERSION_1_0) && connection.containsIgnoringASCIICase("keep-alive")),
            let length = easy.offT(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T), length >= 0,
            let received = easy.offT(CURLINFO_SIZE_DOWNLOAD_T), received <= length
        else { return nil }
        return length - received
    }

    /// How long a transfer may read on once its consumer said `settle`.
    static let settleMilliseconds = 1_000

    /// Starts the settle clock at the consumer's first `settle`.
    func noteSettling(_ decision: TransferDecision) {
        guard decision == .settle, settleDeadline == nil else { return }
        settleDeadline = .now + .milliseconds(Self.settleMilliseconds)
    }

    /// True when a transfer read on past its settle time (and is not
    /// already draining: its result was given at the stop).
    func settleOverdue(at now: ContinuousClock.Instant) -> Bool {
        guard !draining, let settleDeadline else { return false }
        return now >= settleDeadline
    }

    /// True when a drain ran past its time.
    func drainOverdue(at now: ContinuousClock.Instant) -> Bool {
        guard draining, let drainDeadline else { return false }
        return now >= drainDeadline
    }
}
