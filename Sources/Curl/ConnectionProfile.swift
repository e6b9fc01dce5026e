/// What a connection was opened under: the address policy that judged its
/// address, and the settings that chose where and how it connects.
///
/// A kept connection skips the open-socket callback, where the policy is
/// applied, so it may only serve a request with the same profile. The first
/// request an engine runs sets the engine's profile; requests with that
/// profile share the loops' connections, DNS cache and TLS sessions. A
/// request with another profile (the library allows it; `LinkPeekEngine`
/// never sends one, since its policy and settings are fixed per engine) runs
/// isolated: a fresh connection, closed after it, and no share — so a
/// connection opened under a laxer policy can never carry it.
struct ConnectionProfile: Equatable {
    var policy: AddressPolicy
    var nameOverrides: [String]
    var proxies: ProxyTable
    var caFile: String?
    var caPath: String?

    init(_ request: TransferRequest) {
        policy = request.policy
        nameOverrides = request.nameOverrides
        proxies = request.proxies
        caFile = request.caFile
        caPath = request.caPath
    }
}
