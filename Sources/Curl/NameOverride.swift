#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One name override in curl's `--resolve` syntax, `HOST:PORT:ADDR[,ADDR…]`:
/// connections to HOST on PORT go to ADDR instead of what DNS says, and so do
/// redirects to that name. A test harness maps `https://example.test/` to its
/// local server this way without DNS. The address policy still judges ADDR
/// at connect time, like any address DNS could have given.
public struct NameOverride: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Numeric addresses as written (IPv6 without brackets).
    public var addresses: [String]

    /// The entry for `CURLOPT_RESOLVE` (IPv6 addresses in brackets, as curl wants).
    public var curlEntry: String {
        let list = addresses.map { $0.contains(":") ? "[\($0)]" : $0 }.joined(separator: ",")
        return "\(host):\(port):\(list)"
    }

    /// Parses `text`, or says what is wrong with it in a sentence naming `field`.
    public static func parse(_ text: String, field: String) -> Result<NameOverride, ParseProblem> {
        let problem = { (why: String) in
            Result<NameOverride, ParseProblem>.failure(ParseProblem(message: "\(field) \(why)"))
        }
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[2].isEmpty else {
            return problem("must be HOST:PORT:ADDRESS (curl's --resolve syntax), e.g. example.test:443:127.0.0.1")
        }
        let host = String(parts[0])
        guard host.utf8.allSatisfy(Self.isHostByte) else {
            return problem("has a host that is not a plain DNS name: \(host)")
        }
        guard let port = Int(parts[1]), portRange.contains(port) else {
            return problem("port must be an integer from 1 to 65535")
        }
        var addresses: [String] = []
        for item in parts[2].split(separator: ",", omittingEmptySubsequences: false) {
            var address = String(item)
            if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
            guard Self.isNumericAddress(address) else {
                return problem("address must be a numeric IPv4 or IPv6 address: \(item)")
            }
            addresses.append(address)
        }
        return .success(NameOverride(host: host.lowercased(), port: port, addresses: addresses))
    }

    /// The ports an override may name.
    public static let portRange = 1...65535

    public struct ParseProblem: Error, Sendable, Equatable {
        public var message: String
    }

    /// Letters, digits, `-`, `.` and `_`: nothing curl would read as syntax.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Strict dotted-quad IPv4 or IPv6 (`inet_pton`), which is what curl accepts here.
    private static func isNumericAddress(_ text: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }
}
