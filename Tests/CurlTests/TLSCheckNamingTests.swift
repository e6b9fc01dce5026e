import Testing

@testable import Curl

/// A TLS failure says which check failed, from the TLS library's text.
struct TLSCheckNamingTests {
    @Test(arguments: [
        ("SSL certificate problem: certificate has expired", "the server's certificate has expired"),
        ("SSL certificate problem: self-signed certificate", "the server's certificate is self-signed"),
        ("SSL certificate problem: self signed certificate in certificate chain", "the server's certificate is self-signed"),
        ("SSL certificate problem: unable to get local issuer certificate", "comes from a CA that is not trusted"),
        ("SSL: no alternative certificate subject name matches target host name 'a.test'", "is not for this host name"),
        ("SSL certificate problem: certificate is not yet valid", "is not valid yet"),
    ])
    func namesTheCheck(text: String, says: String) {
        let named = CurlError.namingTLSCheck(text)
        #expect(named.contains(says))
        #expect(named.hasSuffix(text))
    }

    @Test func leavesOtherTextAlone() {
        #expect(CurlError.namingTLSCheck("OpenSSL SSL_connect: Connection reset by peer") == "OpenSSL SSL_connect: Connection reset by peer")
    }
}
