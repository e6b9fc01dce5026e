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

    /// The address without its port, as text: for the log only (it formats
    /// the address, so the hot path keys the limit by `client` instead).
    var clientAddress: String {
        ClientID.text(remoteAddress)
    }

    /// The client by its address's bytes, for the per-client limit.
    var client: ClientID {
        ClientID(remoteAddress)
    }
}

/// Who a request counts against in `ClientLimiter`: its bearer token, else its address.
enum ClientID: Hashable, Sendable {
    case token(String)
    case v4(UInt32)
    case v6(UInt64, UInt64)
    case unknown

    /// The client by its address's bytes.
    init(_ remoteAddress: SocketAddress?) {
        switch remoteAddress {
        case .v4(let address)?: self = .v4(address.address.sin_addr.s_addr)
        case .v6(let address)?:
            let words = withUnsafeBytes(of: address.address.sin6_addr) { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
            self = .v6(words.0, words.1)
        default: self = .unknown
        }
    }

    /// The address without its port, as the access log writes it.
    static func text(_ remoteAddress: SocketAddress?) -> String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
