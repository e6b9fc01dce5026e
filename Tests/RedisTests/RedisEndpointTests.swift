import Redis
import Testing

/// `redis://` URLs as `--fleet` and `initializationOptions.fleet` take them.
struct RedisEndpointTests {
    @Test func plainHostAndPort() throws {
        let endpoint = try RedisEndpoint.parse("redis://127.0.0.1:6380", field: "--fleet").get()
        #expect(endpoint == RedisEndpoint(host: "127.0.0.1", port: 6380))
    }

    @Test func credentialsAndDatabase() throws {
        let endpoint = try RedisEndpoint.parse("redis://fleet:p%40ss@cache.internal:6379/3", field: "--fleet").get()
        #expect(endpoint == RedisEndpoint(host: "cache.internal", port: 6379, user: "fleet", password: "p@ss", database: 3))
        // The password never appears in what is logged.
        #expect(endpoint.description == "redis://fleet:***@cache.internal:6379/3")
    }

    @Test func passwordWithoutUser() throws {
        let endpoint = try RedisEndpoint.parse("redis://:secret@[::1]:6379", field: "--fleet").get()
        #expect(endpoint == RedisEndpoint(host: "::1", port: 6379, password: "secret"))
    }

    @Test(arguments: [
        "http://127.0.0.1:6379", "redis://127.0.0.1", "redis://127.0.0.1:0", "redis://127.0.0.1:65536",
        "redis://127.0.0.1:6379/x", "redis://127.0.0.1:6379/100001", "redis://:6379", "redis://user@h:6379",
        "redis://u:@h:6379", "redis://h:6379?db=1", "redis://h :6379", "redis://[::1:6379", "redis://u:%zz@h:6379",
        "redis://h:99999999999999999999", "",
    ])
    func refusedNamingTheField(url: String) {
        guard case .failure(let error) = RedisEndpoint.parse(url, field: "--fleet") else {
            Issue.record("\(url) was accepted")
            return
        }
        #expect(error.message.hasPrefix("--fleet"))
    }

    @Test func tlsIsRefusedWithAReason() {
        guard case .failure(let error) = RedisEndpoint.parse("rediss://h:6379", field: "initializationOptions.fleet") else {
            Issue.record("rediss:// was accepted")
            return
        }
        #expect(error.message.contains("rediss://"))
        #expect(error.message.hasPrefix("initializationOptions.fleet"))
    }
}
