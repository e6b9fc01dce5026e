import Curl
import LinkPeekProtocol

/// The seconds a `minTTL`, `maxTTL` or `failureTTL` may be: up to a year.
public let siteTTLRange = NumberRange(0...31_536_000, unit: "seconds")

extension TableReader {
    /// The `index`th `[[site]]` rule, or nil (with a problem) when it has no usable `match`.
    mutating func siteRule(_ table: ConfigTable, index: Int) -> SiteRule? {
        var rule = SiteRule()
        let key = { (name: String) in "site#\(index).\(name)" }
        for (name, node) in table.entries {
            switch name {
            case "match":
                let value = Self.value(node)
                let texts: [String]? = switch value {
                case .string(let text)?: [text]
                case .strings(let texts)?: texts
                default: nil
                }
                let patterns = texts?.compactMap(SitePattern.init)
                guard let texts, let patterns, !texts.isEmpty, patterns.count == texts.count else {
                    report(key(name), SitePattern.allowed)
                    return nil
                }
                rule.match = patterns
            case "userAgent": rule.userAgent = text(node, key(name), check: OptionKey.oneLine)
            case "acceptLanguage": rule.acceptLanguage = text(node, key(name), check: OptionKey.headerValue)
            case "token":
                rule.token = text(node, key(name)) { $0.isEmpty || OptionKey.oneLine($0) != nil ? "must be one non-empty line" : nil }
            case "proxy":
                rule.proxy = text(node, key(name)) {
                    ProxyTable.problem($0, field: "proxy") == nil ? nil : "must be an http://, https:// or socks5h:// URL, or \"\""
                }
            case "fetch":
                rule.fetch = text(node, key(name)) { SiteFetch(rawValue: $0) == nil ? "must be one of \"always\", \"cacheOnly\", \"never\"" : nil }
                    .flatMap(SiteFetch.init(rawValue:))
            case "allowCredentials", "sites":
                guard let flag = node.bool else {
                    report(key(name), "must be true or false")
                    continue
                }
                if name == "sites" { rule.sites = flag } else { rule.allowCredentials = flag }
            case "timeout": rule.timeout = number(node, key(name), ParamRanges.timeout)
            case "minTTL": rule.minTTL = number(node, key(name), siteTTLRange)
            case "maxTTL": rule.maxTTL = number(node, key(name), siteTTLRange)
            case "headers":
                guard let headers = node.table else {
                    report(key(name), "must be a table of header names to values")
                    continue
                }
                for (header, node) in headers.entries {
                    let value = node.string
                    if !Self.isToken(header) || value.flatMap(OptionKey.headerValue) != nil || value == nil {
                        report(key("headers.\(header)"), "must be a header name with a one-line string value")
                    } else if let value {
                        rule.headers[header] = value
                    }
                }
            case "failureTTL":
                guard let kinds = node.table else {
                    report(key(name), "must be a table of failure kinds to seconds")
                    continue
                }
                let entries = kinds.entries
                rule.failureTTL.reserveCapacity(entries.underestimatedCount)
                for (kind, node) in entries {
                    guard let failure = FailureKind(rawValue: kind) else {
                        let allowed = FailureKind.allCases.map(\.rawValue).joined(separator: ", ")
                        report(key("failureTTL.\(kind)"), kind == "rateLimited"
                            ? "cannot be set: a rate-limited host is held for its Retry-After, never longer"
                            : "is not a failure kind; the kinds are \(allowed)")
                        continue
                    }
                    if let seconds = number(node, key("failureTTL.\(kind)"), siteTTLRange) {
                        rule.failureTTL[failure] = seconds
                    }
                }
            default:
                report(key(name), "is not a key of a [[site]] rule (`linkpeek config keys` lists them)")
            }
        }
        guard !rule.match.isEmpty else {
            report("site#\(index)", "needs match = \"host\" (\(SitePattern.allowed.dropFirst(8)))")
            return nil
        }
        if let min = rule.minTTL, let max = rule.maxTTL, min > max {
            report(key("minTTL"), "must not be more than maxTTL")
            rule.minTTL = nil
        }
        let credentials = rule.headers.keys.filter { SiteRule.credentialHeaders.contains($0.lowercased()) }
        let namesHTTPSHosts = rule.match.allSatisfy { $0.httpsOnly && !$0.subdomains }
        if !credentials.isEmpty, !(rule.allowCredentials && namesHTTPSHosts) {
            report(key("headers.\(credentials.sorted()[0])"),
                "is refused: Host, Cookie and Authorization need allowCredentials = true and match patterns that each name one https:// host")
            for name in credentials { rule.headers[name] = nil }
        }
        return rule
    }

    // `key` is spelled only for a problem: a good rule builds no key names.
    private mutating func text(
        _ node: ConfigNode, _ key: @autoclosure () -> String, check: (String) -> String? = { _ in nil }
    ) -> String? {
        guard let text = node.string else {
            report(key(), "must be a string")
            return nil
        }
        if let problem = check(text) {
            report(key(), problem)
            return nil
        }
        return text
    }

    private mutating func number(_ node: ConfigNode, _ key: @autoclosure () -> String, _ range: NumberRange) -> Double? {
        guard case .number(let number)? = Self.value(node), range.check(number, field: "") == nil else {
            report(key(), "must be \(OptionKind.number(range).allowed)")
            return nil
        }
        return number
    }

    /// RFC 9110's token: what a header name may be.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 256 && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
