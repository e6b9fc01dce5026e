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

struct IPNetworkTests {
    @Test func allowedNetworksOpenOnlyThemselves() throws {
        let policy = AddressPolicy(allowedNetworks: [try #require(IPNetwork("127.0.0.2"))])
        #expect(policy.permits(.v4(0x7f00_0002)))
        #expect(!policy.permits(.v4(0x7f00_0001)))
        #expect(policy.permits(.v4(0x0808_0808)), "public addresses stay allowed")
    }

    @Test func parsesCIDR() throws {
        let ten = try #require(IPNetwork("10.0.0.0/8"))
        #expect(ten.contains(try #require(IPAddress(numericHost: "10.200.1.1"))))
        #expect(!ten.contains(try #require(IPAddress(numericHost: "11.0.0.1"))))
        let ula = try #require(IPNetwork("fd00::/8"))
        #expect(ula.contains(try #require(IPAddress(numericHost: "fd12::1"))))
        #expect(!ula.contains(try #require(IPAddress(numericHost: "fe80::1"))))
        for bad in ["", "10.0.0.0/33", "x/8", "10.0.0.0/", "::/129", "example.com"] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
    }
}
