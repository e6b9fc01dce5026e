internal import CCurl

/// One engine's libcurl share handle: the DNS cache and TLS sessions, shared
/// by all of its multi loops (each loop has its own `CURLM*`, so without this
/// each would look up and resume on its own).
///
/// The connection cache is not shared: libcurl does not support sharing
/// connections between threads, and the loops are threads. Each loop keeps
/// its own connections (a drained stop returns one there, see
/// `Transfer+Drain`).
///
/// Why sharing cannot get around the address policy: every new connection
/// still goes through the open-socket callback, which judges the address it
/// is about to connect to, whatever the DNS cache said; a TLS session only
/// shortens the handshake on a connection that callback allowed. And only
/// requests with the engine's `ConnectionProfile` (policy, name overrides,
/// proxies, CA settings) use the share and kept connections; `LinkPeekEngine`
/// gives all of its requests one profile.
///
/// - Important: lives as long as the admission, which every loop holds; it
///   is freed after the last loop has cleaned up its multi handle and easy
///   handles (libcurl refuses to free a share still in use, and then it is
///   left rather than freed under a user).
final class CurlShare: @unchecked Sendable {
    private let share: OpaquePointer

    /// Nil when libcurl refuses the share (transfers then run without one).
    init?() {
        guard let share = lp_share_create() else { return nil }
        self.share = share
    }

    deinit {
        lp_share_destroy(share)
    }

    /// The `CURLSH*` for `CURLOPT_SHARE`.
    var handle: UnsafeMutableRawPointer? { lp_share_handle(share) }
}
