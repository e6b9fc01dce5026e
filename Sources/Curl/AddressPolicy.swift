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
        case .v4(let address):
            return !Self.blockedV4.contains { $0.contains(address) }
        case .v6(let bytes):
            guard bytes.count == 16 else { return false }
            if let embedded = Self.embeddedV4(bytes) {
                return IPAddress.v4(embedded).isPubliclyRoutable
            }
            return !Self.blockedV6.contains { $0.contains(bytes) }
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

    private struct V4Range: Sendable {
        let base: UInt32, bits: UInt32
        init(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, _ bits: UInt32) {
            base = a << 24 | b << 16 | c << 8 | d
            self.bits = bits
        }
        func contains(_ address: UInt32) -> Bool {
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return address & mask == base & mask
        }
    }

    private struct V6Range: Sendable {
        let prefix: [UInt8], bits: Int
        func contains(_ address: [UInt8]) -> Bool {
            var remaining = bits
            for i in 0..<16 where remaining > 0 {
                let take = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xff << (8 - take))
                if address[i] & mask != prefix[i] & mask { return false }
                remaining -= take
            }
            return true
        }
    }

    private static let blockedV4: [V4Range] = [
        V4Range(0, 0, 0, 0, 8),  // "this network", 0.0.0.0
        V4Range(10, 0, 0, 0, 8),  // private
        V4Range(100, 64, 0, 0, 10),  // CGNAT
        V4Range(127, 0, 0, 0, 8),  // loopback
        V4Range(169, 254, 0, 0, 16),  // link-local (cloud metadata lives here)
        V4Range(172, 16, 0, 0, 12),  // private
        V4Range(192, 0, 0, 0, 24),  // IETF protocol assignments
        V4Range(192, 0, 2, 0, 24),  // documentation
        V4Range(192, 88, 99, 0, 24),  // 6to4 relay anycast
        V4Range(192, 168, 0, 0, 16),  // private
        V4Range(198, 18, 0, 0, 15),  // benchmarking
        V4Range(198, 51, 100, 0, 24),  // documentation
        V4Range(203, 0, 113, 0, 24),  // documentation
        V4Range(224, 0, 0, 0, 4),  // multicast
        V4Range(240, 0, 0, 0, 4),  // reserved, and 255.255.255.255
    ]

    private static let blockedV6: [V6Range] = [
        V6Range(prefix: [UInt8](repeating: 0, count: 16), bits: 128),  // ::
        V6Range(prefix: [UInt8](repeating: 0, count: 15) + [1], bits: 128),  // ::1
        V6Range(prefix: [0xfe, 0x80] + [UInt8](repeating: 0, count: 14), bits: 10),  // link-local
        V6Range(prefix: [0xfc] + [UInt8](repeating: 0, count: 15), bits: 7),  // unique-local
        V6Range(prefix: [0xfe, 0xc0] + [UInt8](repeating: 0, count: 14), bits: 10),  // site-local (deprecated)
        V6Range(prefix: [0xff] + [UInt8](repeating: 0, count: 15), bits: 8),  // multicast
        V6Range(prefix: [0x01, 0x00] + [UInt8](repeating: 0, count: 14), bits: 64),  // discard-only
        V6Range(prefix: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 12), bits: 32),  // documentation
    ]
}
