/// Which certificate check failed, said plainly: curl's buffer carries the
/// TLS library's text ("SSL certificate problem: self-signed certificate"),
/// which names the check but not in words a user of linkpeek acts on.
extension CurlError {
    /// `text` with the failed check named first, when it is one we know.
    static func namingTLSCheck(_ text: String) -> String {
        let lowered = text.lowercased()
        guard let check = tlsChecks.first(where: { pattern, _ in lowered.contains(pattern) })?.1 else { return text }
        return "\(check): \(text)"
    }

    /// Substrings of OpenSSL's (and GnuTLS's) messages, most specific first.
    private static let tlsChecks: [(String, String)] = [
        ("has expired", "the server's certificate has expired"),
        ("expired", "the server's certificate has expired"),
        ("not yet valid", "the server's certificate is not valid yet"),
        ("self-signed", "the server's certificate is self-signed and not trusted (--cacert trusts a CA)"),
        ("self signed", "the server's certificate is self-signed and not trusted (--cacert trusts a CA)"),
        ("unable to get local issuer", "the server's certificate comes from a CA that is not trusted (--cacert trusts one)"),
        ("unknown issuer", "the server's certificate comes from a CA that is not trusted (--cacert trusts one)"),
        ("subject name", "the server's certificate is not for this host name"),
        ("does not match target host", "the server's certificate is not for this host name"),
        ("hostname mismatch", "the server's certificate is not for this host name"),
        ("error setting certificate file", "the CA file could not be read"),
        ("cafile", "the CA file could not be read"),
    ]
}
