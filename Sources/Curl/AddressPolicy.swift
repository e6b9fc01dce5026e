/// Which IP addresses a fetch may connect to.
///
/// The policy is applied to the address curl is about to connect to (in the
/// open-socket callback), after DNS and after every redirect, so neither a
/// redirect nor a DNS answer that points inside the network can get around
/// it, and every spelling of a numeric host (`2130706433`, `0x7f.1`, `127.1`,
/// `[::ffff:127.0.0.1]`) is judged by the address it really means.
public struct AddressPolicy: Sendable, Equatable {
    /// When true, every address is allowed (tests and trusted setups).
    public var allowPrivateNetwork: Bool
    /// Networks allowed although not public: a trusted intranet host, say,
    /// without opening the whole private range.
    public var allowedNetworks: [IPNetwork]

    public init(allowPrivateNetwork: Bool = false, allowedNetworks: [IPNetwork] = []) {
        self.allowPrivateNetwork = allowPrivateNetwork
        self.allowedNetworks = allowedNetworks
    }

    /// True when a connection to `address` may be made.
    public func permits(_ address: IPAddress) -> Bool {
        allowPrivateNetwork || address.isPubliclyRoutable || allowedNetworks.contains { $0.contains(address) }
    }

    /// The rule that refuses `address` (`127.0.0.0/8 loopback`), or nil when it is permitted.
    public func refusingRule(for address: IPAddress) -> String? {
        guard !permits(address) else { return nil }
        return address.blockingRule ?? "not an IP address"
    }
}

/// An IPv4 or IPv6 address as bytes in network order.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    case v6([UInt8])

    /// False for loopback, private (RFC 1918), link-local, CGNAT, unique-local,
    /// multicast, unspecified, reserved and documentation ranges, and for IPv6
    /// forms that embed such an IPv4 address (mapped, compatible, NAT64, 6to4).
    public var isPubliclyRoutable: Bool {
        switch self {
        case .v4:
            return !Self.blockedV4.contains { $0.network.contains(self) }
        case .v6(let bytes):
            guard bytes.count == 16 else { return false }
            if let embedded = Self.embeddedV4(bytes) {
                return IPAddress.v4(embedded).isPubliclyRoutable
            }
            return !Self.blockedV6.contains { $0.network.contains(self) }
        }
    }

    /// The blocked range `address` falls in, with its name (`10.0.0.0/8 private`);
    /// nil for a publicly routable address.
    public var blockingRule: String? {
        switch self {
        case .v4:
            return Self.blockedV4.first { $0.network.contains(self) }.map { "\($0.network) \($0.name)" }
        case .v6(let bytes):
            guard bytes.count == 16 else { return "malformed IPv6 address" }
            if let embedded = Self.embeddedV4(bytes), let rule = IPAddress.v4(embedded).blockingRule {
                return "embeds \(IPAddress.v4(embedded)), \(rule)"
            }
            return Self.blockedV6.first { $0.network.contains(self) }.map { "\($0.network) \($0.name)" }
        }
    }

    public var description: String {
        switch self {
        case .v4(let a):
            return [24, 16, 8, 0].map { String((a >> $0) & 0xff) }.joined(separator: ".")
        case .v6(let b):
            return stride(from: 0, to: b.count, by: 2)
                .map { String(UInt16(b[$0]) << 8 | UInt16(b[$0 + 1]), radix: 16) }
                .joined(separator: ":")
        }
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`),
    /// IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) or 6to4
    /// (`2002:aabb:ccdd::/48`) address.
    static func embeddedV4(_ b: [UInt8]) -> UInt32? {
        func v4(at i: Int) -> UInt32 {
            UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
        }
        let first10Zero = b[0..<10].allSatisfy { $0 == 0 }
        if first10Zero && b[10] == 0xff && b[11] == 0xff { return v4(at: 12) }
        // ::/96 compatible form, but not :: and ::1 themselves (judged as IPv6).
        if first10Zero && b[10] == 0 && b[11] == 0 && v4(at: 12) > 1 { return v4(at: 12) }
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return v4(at: 12) }
        if b[0] == 0x20 && b[1] == 0x02 { return v4(at: 2) }
        return nil
    }

    private static let blockedV4: [(network: IPNetwork, name: String)] = [
        (IPNetwork(v4: 0, 0, 0, 0, prefix: 8), "this network"),  // "this network", 0.0.0.0
        (IPNetwork(v4: 10, 0, 0, 0, prefix: 8), "private"),
        (IPNetwork(v4: 100, 64, 0, 0, prefix: 10), "CGNAT"),
        (IPNetwork(v4: 127, 0, 0, 0, prefix: 8), "loopback"),
        (IPNetwork(v4: 169, 254, 0, 0, prefix: 16), "link-local"),  // link-local (cloud metadata lives here)
        (IPNetwork(v4: 172, 16, 0, 0, prefix: 12), "private"),
        (IPNetwork(v4: 192, 0, 0, 0, prefix: 24), "IETF protocol assignments"),
        (IPNetwork(v4: 192, 0, 2, 0, prefix: 24), "documentation"),
        (IPNetwork(v4: 192, 88, 99, 0, prefix: 24), "6to4 relay anycast"),
        (IPNetwork(v4: 192, 168, 0, 0, prefix: 16), "private"),
        (IPNetwork(v4: 198, 18, 0, 0, prefix: 15), "benchmarking"),
        (IPNetwork(v4: 198, 51, 100, 0, prefix: 24), "documentation"),
        (IPNetwork(v4: 203, 0, 113, 0, prefix: 24), "documentation"),
        (IPNetwork(v4: 224, 0, 0, 0, prefix: 4), "multicast"),
        (IPNetwork(v4: 240, 0, 0, 0, prefix: 4), "reserved"),  // reserved, and 255.255.255.255
    ]

    private static let blockedV6: [(network: IPNetwork, name: String)] = [
        (IPNetwork(v6: [UInt8](repeating: 0, count: 16), prefix: 128), "unspecified"),  // ::
        (IPNetwork(v6: [UInt8](repeating: 0, count: 15) + [1], prefix: 128), "loopback"),  // ::1
        (IPNetwork(v6: [0xfe, 0x80] + [UInt8](repeating: 0, count: 14), prefix: 10), "link-local"),
        (IPNetwork(v6: [0xfc] + [UInt8](repeating: 0, count: 15), prefix: 7), "unique-local"),
        (IPNetwork(v6: [0xfe, 0xc0] + [UInt8](repeating: 0, count: 14), prefix: 10), "site-local"),  // site-local (deprecated)
        (IPNetwork(v6: [0xff] + [UInt8](repeating: 0, count: 15), prefix: 8), "multicast"),
        (IPNetwork(v6: [0x01, 0x00] + [UInt8](repeating: 0, count: 14), prefix: 64), "discard-only"),
        (IPNetwork(v6: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 12), prefix: 32), "documentation"),
    ]
}
