import TextTrimming

/// Where a Redis server is: `redis://[user:password@]host:port[/db]`, parsed
/// and checked at the edge (the CLI's `--fleet`, `initializationOptions.fleet`).
///
/// `rediss://` (TLS) is refused with a sentence: it would need hiredis's
/// separate TLS library, which this build does not load.
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String?
    public var password: String?
    public var database: Int

    public init(host: String, port: Int, user: String? = nil, password: String? = nil, database: Int = 0) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
    }

    /// The URL without its password, for logs and errors.
    public var description: String {
        let credentials = user.map { $0 + (password == nil ? "" : ":***") + "@" } ?? (password == nil ? "" : ":***@")
        let address = host.contains(":") ? "[\(host)]" : host
        return "redis://\(credentials)\(address):\(port)" + (database == 0 ? "" : "/\(database)")
    }

    /// Databases a default Redis has (`databases 16`); a larger index is refused there by SELECT, not here.
    static let databases = 0...100_000

    /// The endpoint `url` names, or a sentence saying what is wrong with it, naming `field`.
    public static func parse(_ url: String, field: String) -> Result<RedisEndpoint, RedisURLError> {
        func fail(_ why: String) -> Result<RedisEndpoint, RedisURLError> {
            .failure(RedisURLError(message: "\(field) \(why), as redis://[user:password@]host:port[/db]"))
        }
        if url.hasPrefix("rediss://") {
            return .failure(RedisURLError(message:
                "\(field): rediss:// (TLS) is not supported by this build; use redis:// to a server on a trusted network"))
        }
        guard url.hasPrefix("redis://") else { return fail("must be a redis:// URL") }
        var rest = Substring(url.dropFirst("redis://".count))
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } ?? false })
        else { return fail("must not contain spaces, control characters, a query or a fragment") }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            if !path.isEmpty {
                guard path.count <= 6, path.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(path),
                    databases.contains(number)
                else { return fail("has a database that is not a number from 0 to \(databases.upperBound)") }
                database = number
            }
        }
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            guard let colon = credentials.firstIndex(of: ":") else {
                return fail("has credentials that are not user:password or :password")
            }
            let name = credentials[..<colon]
            if !name.isEmpty {
                guard let decoded = percentDecoded(name) else { return fail("has a malformed %-escape in its user name") }
                user = decoded
            }
            guard let secret = percentDecoded(credentials[credentials.index(after: colon)...]), !secret.isEmpty else {
                return fail("has an empty or malformed password")
            }
            password = secret
        }
        let host: Substring, portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return fail("has an unclosed [IPv6] address") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.hasPrefix(":") else { return fail("needs a port") }
            portText = after.dropFirst()
        } else {
            guard let colon = rest.lastIndex(of: ":") else { return fail("needs a port") }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty, host.count <= 253 else { return fail("needs a host") }
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText),
            (1...65535).contains(port)
        else { return fail("needs a port from 1 to 65535") }
        return .success(RedisEndpoint(host: String(host), port: port, user: user, password: password, database: database))
    }

    /// `%XX` escapes decoded (a password may hold `@` or `:`); nil when one is malformed.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(ASCIIByte.hexValue), let low = iterator.next().flatMap(ASCIIByte.hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// A `redis://` URL that cannot be used, as a sentence naming the field.
public struct RedisURLError: Error, Sendable, Equatable {
    public let message: String
}
