/// An address range in CIDR notation (`127.0.0.2/32`, `10.0.0.0/8`, `fd00::/8`);
/// a bare address means just that address.
public struct IPNetwork: Sendable, Equatable, CustomStringConvertible {
    public let address: IPAddress
    public let prefixLength: Int

    /// Parses `ADDRESS[/BITS]`; nil when either part is malformed.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(numericHost: String(parts[0])) else { return nil }
        let width = if case .v4 = address { 32 } else { 128 }
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...width).contains(bits) else { return nil }
            prefixLength = bits
        } else {
            prefixLength = width
        }
        self.address = address
    }

    /// `a.b.c.d/prefix`, for ranges written in the code (`prefix` within 0...32).
    init(v4 a: UInt32, _ b: UInt32, _ c: UInt32, _ d: UInt32, prefix: Int) {
        address = .v4(a << 24 | b << 16 | c << 8 | d)
        prefixLength = min(max(prefix, 0), 32)
    }

    /// The 16 bytes of an IPv6 network, for ranges written in the code
    /// (`prefix` within 0...128).
    init(v6 bytes: [UInt8], prefix: Int) {
        address = .v6(bytes)
        prefixLength = min(max(prefix, 0), 128)
    }

    /// True when `other` is inside this network: the one CIDR masking in the
    /// package (the address policy's blocked ranges are `IPNetwork`s too).
    public func contains(_ other: IPAddress) -> Bool {
        switch (address, other) {
        case (.v4(let base), .v4(let candidate)):
            let mask: UInt32 = prefixLength == 0 ? 0 : ~UInt32(0) << (32 - prefixLength)
            return base & mask == candidate & mask
        case (.v6(let base), .v6(let candidate)):
            var remaining = prefixLength
            for (b, c) in zip(base, candidate) where remaining > 0 {
                let take = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xff << (8 - take))
                if b & mask != c & mask { return false }
                remaining -= take
            }
            return true
        default:
            return false
        }
    }

    public var description: String { "\(address)/\(prefixLength)" }
}
