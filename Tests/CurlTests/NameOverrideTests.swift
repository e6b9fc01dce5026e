import Testing

@testable import Curl

/// `--resolve HOST:PORT:ADDR[,ADDR…]` as curl reads it, and the entry handed to curl.
struct NameOverrideTests {
    @Test func parsesOneAddressAndSeveral() throws {
        let one = try NameOverride.parse("Example.TEST:8443:127.0.0.1", field: "f").get()
        #expect(one == NameOverride(host: "example.test", port: 8443, addresses: ["127.0.0.1"]))
        #expect(one.curlEntry == "example.test:8443:127.0.0.1")
        let many = try NameOverride.parse("a.test:80:[::1],10.0.0.2,fe80::1", field: "f").get()
        #expect(many.addresses == ["::1", "10.0.0.2", "fe80::1"])
        #expect(many.curlEntry == "a.test:80:[::1],10.0.0.2,[fe80::1]")
    }

    @Test(arguments: [
        "", "a.test", "a.test:80", ":80:127.0.0.1", "a.test:80:", "a.test::127.0.0.1", "a.test:-1:127.0.0.1",
        "a.test:65536:127.0.0.1", "a.test:99999999999999999999:127.0.0.1", "a.test:80:127.1", "a.test:80:0x7f.1",
        "a.test:80:localhost", "a.test:80:127.0.0.1,", "a b:80:127.0.0.1", "a.test\n:80:127.0.0.1", "a,b:80:1.2.3.4",
    ])
    func refusesWhatCurlWouldMisread(text: String) {
        guard case .failure(let problem) = NameOverride.parse(text, field: "--resolve") else {
            Issue.record("\(text.debugDescription) should be refused")
            return
        }
        #expect(problem.message.hasPrefix("--resolve "))
    }
}
