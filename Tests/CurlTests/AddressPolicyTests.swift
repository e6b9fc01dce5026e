import Testing

@testable import Curl

/// Every spelling of an address is judged by the address it means.
struct AddressPolicyTests {
    let policy = AddressPolicy()

    @Test(arguments: [
        "127.0.0.1", "2130706433", "0x7f.0.0.1", "0x7f000001", "017700000001", "127.1", "127.0.1",
        "0.0.0.0", "0", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
        "100.64.0.1", "100.127.255.254", "224.0.0.1", "239.255.255.250", "255.255.255.255", "240.0.0.1",
        "[::1]", "::", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
        "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "64:ff9b::7f00:1", "2002:7f00:1::", "::127.0.0.1",
        "fec0::1", "2001:db8::1",
    ])
    func refusesNonPublicAddresses(host: String) throws {
        let address = try #require(IPAddress(numericHost: host), "\(host) should parse")
        #expect(!policy.permits(address), "\(host) = \(address) must be refused")
        #expect(AddressPolicy(allowPrivateNetwork: true).permits(address))
    }

    @Test(arguments: [
        "93.184.216.34", "8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1",
        "192.169.0.1", "11.0.0.1", "2606:4700::1111", "[2a00:1450:4001::200e]", "::ffff:8.8.8.8",
        "64:ff9b::808:808",
    ])
    func allowsPublicAddresses(host: String) throws {
        let address = try #require(IPAddress(numericHost: host))
        #expect(policy.permits(address), "\(host) = \(address) must be allowed")
    }

    @Test func hostNamesAreNotNumeric() {
        #expect(IPAddress(numericHost: "localhost") == nil)
        #expect(IPAddress(numericHost: "example.com") == nil)
    }

    @Test func numericSpellingsMeanLoopback() {
        for host in ["2130706433", "0x7f.0.0.1", "127.1", "0177.0.0.1"] {
            #expect(IPAddress(numericHost: host) == .v4(0x7f00_0001), "\(host)")
        }
    }
}
