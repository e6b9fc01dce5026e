#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension IPAddress {
    /// The address a numeric host means, parsed the way the system resolver
    /// parses it (so `2130706433`, `0x7f.0.0.1` and `127.1` all give
    /// 127.0.0.1); nil for a host name. Brackets around IPv6 are accepted.
    public init?(numericHost host: String) {
        var host = host
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST
        hints.ai_family = AF_UNSPEC
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(info) }
        guard let address = info.pointee.ai_addr else { return nil }
        self.init(sockaddr: UnsafeRawPointer(address), length: Int(info.pointee.ai_addrlen))
    }

    /// Reads a `sockaddr_in` or `sockaddr_in6`; nil for any other family.
    init?(sockaddr raw: UnsafeRawPointer, length: Int) {
        let family = Int32(raw.load(as: sockaddr.self).sa_family)
        if family == AF_INET, length >= MemoryLayout<sockaddr_in>.size {
            let v4 = raw.loadUnaligned(as: sockaddr_in.self)
            self = .v4(UInt32(bigEndian: v4.sin_addr.s_addr))
        } else if family == AF_INET6, length >= MemoryLayout<sockaddr_in6>.size {
            var v6 = raw.loadUnaligned(as: sockaddr_in6.self)
            let bytes = withUnsafeBytes(of: &v6.sin6_addr) { Array($0) }
            self = .v6(bytes)
        } else {
            return nil
        }
    }
}
