import Hummingbird
import NIOCore

/// A request's context: Hummingbird's, and the client's address (the
/// per-client limit's key when there is no token).
struct FrontContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The address without its port, for the limit and the log.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
