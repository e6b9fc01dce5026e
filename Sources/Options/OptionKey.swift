import Curl
import LinkPeekProtocol
import Redis
import SiteEngines

/// One preference: its name (the same in the file, in
/// `initializationOptions` and, upper-cased, in the environment), its kind
/// and range, its flag, its default and one line of documentation.
/// `OptionKey.all` is the one table of them: the merge, the file reader,
/// the environment, `config show` and the docs' table all walk it.
public struct OptionKey {
    public let name: String
    public let kind: OptionKind
    /// The command-line flag, if any (`--timeout`).
    public let flag: String?
    public let defaultText: String
    public let summary: String
    /// A problem beyond the kind (a CIDR, a URL), as "must …"; nil when fine.
    let check: (OptionValue) -> String?
    let value: (Options) -> OptionValue?
    let assign: (inout Options, OptionValue?) -> Void

    /// `LINKPEEK_TIMEOUT`, `LINKPEEK_HOVER_FETCH`.
    public var environmentName: String {
        var result = "LINKPEEK_"
        for character in name {
            if character == "." {
                result += "_"
            } else if character.isUppercase {
                result += "_" + String(character)
            } else {
                result += character.uppercased()
            }
        }
        return result
    }

    /// `value` for this key, checked: nil when allowed, else "must be …".
    public func problem(_ value: OptionValue) -> String? {
        switch (kind, value) {
        case (.bool, .bool), (.string, .string), (.strings, .strings): return check(value)
        case (.number(let range), .number(let number)):
            return range.check(number, field: "").map { _ in "must be \(kind.allowed)" } ?? check(value)
        case (.choice(let words), .string(let word)):
            return words.contains(word) ? nil : "must be one of \(kind.allowed)"
        case (.switchOrNames, .bool): return nil
        case (.switchOrNames(let names), .strings(let items)):
            return items.allSatisfy(names.contains) ? nil : "must be \(kind.allowed)"
        default: return "must be \(kind.allowed)"
        }
    }

    public static func named(_ name: String) -> OptionKey? { all.first { $0.name == name } }
}

extension OptionKey {
    static func bool(
        _ name: String, _ path: WritableKeyPath<Options, Bool?>, flag: String?, default defaultText: String,
        _ summary: String
    ) -> OptionKey {
        OptionKey(
            name: name, kind: .bool, flag: flag, defaultText: defaultText, summary: summary, check: { _ in nil },
            value: { $0[keyPath: path].map(OptionValue.bool) },
            assign: { options, value in
                if case .bool(let bool)? = value { options[keyPath: path] = bool } else { options[keyPath: path] = nil }
            })
    }

    static func number(
        _ name: String, _ path: WritableKeyPath<Options, Double?>, _ range: NumberRange, flag: String?,
        default defaultText: String, _ summary: String
    ) -> OptionKey {
        OptionKey(
            name: name, kind: .number(range), flag: flag, defaultText: defaultText, summary: summary,
            check: { _ in nil }, value: { $0[keyPath: path].map(OptionValue.number) },
            assign: { options, value in
                if case .number(let number)? = value { options[keyPath: path] = number } else { options[keyPath: path] = nil }
            })
    }

    static func string(
        _ name: String, _ path: WritableKeyPath<Options, String?>, flag: String?, default defaultText: String,
        _ summary: String, check: @escaping (String) -> String? = { _ in nil }
    ) -> OptionKey {
        OptionKey(
            name: name, kind: .string, flag: flag, defaultText: defaultText, summary: summary,
            check: { value in if case .string(let text) = value { check(text) } else { nil } },
            value: { $0[keyPath: path].map(OptionValue.string) },
            assign: { options, value in
                if case .string(let text)? = value { options[keyPath: path] = text } else { options[keyPath: path] = nil }
            })
    }

    static func strings(
        _ name: String, _ path: WritableKeyPath<Options, [String]?>, flag: String?, default defaultText: String,
        _ summary: String, check: @escaping (String) -> String? = { _ in nil }
    ) -> OptionKey {
        OptionKey(
            name: name, kind: .strings, flag: flag, defaultText: defaultText, summary: summary,
            check: { value in
                guard case .strings(let items) = value else { return nil }
                return items.lazy.compactMap(check).first
            },
            value: { $0[keyPath: path].map(OptionValue.strings) },
            assign: { options, value in
                if case .strings(let items)? = value { options[keyPath: path] = items } else { options[keyPath: path] = nil }
            })
    }

    /// `sites`: every site engine on or off, or the engines to turn off.
    static var sitesKey: OptionKey {
        OptionKey(
            name: "sites", kind: .switchOrNames(SiteEngines.all().map(\.name)), flag: "--no-sites", defaultText: "true",
            summary: "Site engines (`linkpeek sites`): false turns all off, a list of names turns those off.",
            check: { _ in nil },
            value: { options in
                switch options.sites {
                case .all(let on)?: .bool(on)
                case .off(let names)?: .strings(names)
                case nil: nil
                }
            },
            assign: { options, value in
                switch value {
                case .bool(let on)?: options.sites = .all(on)
                case .strings(let names)?: options.sites = .off(names)
                default: options.sites = nil
                }
            })
    }

    static var hoverFetchKey: OptionKey {
        OptionKey(
            name: "hover.fetch", kind: .choice(HoverFetch.allCases.map(\.rawValue)), flag: "--hover-fetch",
            defaultText: "always",
            summary: "Whether a hover fetches: always, allowList (only hover.allow hosts) or cacheOnly (never; explicit fetches still do).",
            check: { _ in nil }, value: { $0.hoverFetch.map { .string($0.rawValue) } },
            assign: { options, value in
                if case .string(let word)? = value { options.hoverFetch = HoverFetch(rawValue: word) } else { options.hoverFetch = nil }
            })
    }
}

extension OptionKey {
    /// Every preference, in the order of the docs' table.
    public static var all: [OptionKey] {
        [
            .number("timeout", \.timeout, ParamRanges.timeout, flag: "--timeout", default: "30",
                "Seconds before a fetch fails with timedOut."),
            .bool("allowPrivateNetwork", \.allowPrivateNetwork, flag: "--allow-private-network", default: "false",
                "Allow loopback, private, link-local and similar addresses."),
            .strings("allowNetwork", \.allowNetwork, flag: "--allow-network", default: "(none)",
                "Non-public networks allowed all the same (CIDR).",
                check: { IPNetwork($0) == nil ? "must be addresses or CIDR ranges such as 10.1.2.3/32" : nil }),
            .string("userAgent", \.userAgent, flag: "--user-agent", default: "linkpeek's own",
                "The User-Agent header.", check: oneLine),
            .string("acceptLanguage", \.acceptLanguage, flag: "--accept-language", default: "the locale",
                "Accept-Language for requests that name none (\"\" for none).", check: headerValue),
            .number("maxConcurrency", \.maxConcurrency, ParamRanges.maxConcurrency, flag: "--max-concurrency",
                default: "64", "Transfers running at once, in all (serve)."),
            .string("cacheDir", \.cacheDir, flag: "--cache-dir", default: "$XDG_CACHE_HOME/linkpeek",
                "The cache directory.", check: { $0.isEmpty ? "must not be empty" : nil }),
            .bool("cache", \.cache, flag: "--no-cache", default: "true",
                "False keeps previews and saved links in memory only."),
            .number("cacheSize", \.cacheSize, ParamRanges.cacheSize, flag: "--cache-size", default: "256",
                "The cache's size limit."),
            .strings("resolve", \.resolve, flag: "--resolve", default: "(none)",
                "HOST:PORT:ADDR name overrides (the address policy still applies).",
                check: { entry in
                    if case .failure = NameOverride.parse(entry, field: "resolve") { return "must be HOST:PORT:ADDR entries" }
                    return nil
                }),
            .string("caFile", \.caFile, flag: "--cacert", default: "$SSL_CERT_FILE, else the system store",
                "CA certificates (PEM) to trust."),
            .string("caPath", \.caPath, flag: "--capath", default: "$SSL_CERT_DIR",
                "A directory of hashed CA certificates."),
            .string("proxy", \.proxy, flag: "--proxy", default: "https_proxy, http_proxy, all_proxy",
                "The proxy for every request (\"\" for none).",
                check: { ProxyTable.problem($0, field: "proxy") == nil ? nil : "must be an http://, https:// or socks5h:// URL, or \"\"" }),
            .string("noProxy", \.noProxy, flag: "--no-proxy", default: "no_proxy",
                "Hosts that bypass the proxy, comma-separated."),
            .bool("oembed", \.oembed, flag: "--no-oembed", default: "true",
                "oEmbed: the bundled providers and discovery."),
            sitesKey,
            .strings("gitlabHosts", \.gitlabHosts, flag: "--gitlab-host", default: "(none)",
                "Hosts that run GitLab besides gitlab.com, for the gitlab site engine.",
                check: { SiteURL.isHostName($0) ? nil : "must be plain DNS names" }),
            .string("fleet", \.fleet, flag: "--fleet", default: "(none)",
                "redis://host:port: the cache level shared by a fleet of daemons.",
                check: { url in
                    if case .failure = RedisEndpoint.parse(url, field: "fleet") { return "must be a redis://[user:password@]host:port[/db] URL" }
                    return nil
                }),
            .number("fleetOriginRate", \.fleetOriginRate, NumberRange(1...10_000, integral: true),
                flag: "--fleet-origin-rate", default: "5", "Requests per second to one host for the whole fleet."),
            .number("hoverTimeout", \.hoverTimeout, ParamRanges.hoverTimeout, flag: nil, default: "1.5",
                "Seconds a hover waits for a fetch."),
            .bool("prefetch", \.prefetch, flag: nil, default: "false",
                "Fetch the URLs of opened documents ahead of hovers (follows hover.fetch)."),
            .bool("hoverImages", \.hoverImages, flag: "--no-hover-images", default: "true",
                "The preview image in hover cards."),
            hoverFetchKey,
            .strings("hover.allow", \.hoverAllow, flag: nil, default: "(none)",
                "Hosts a hover may fetch with hover.fetch = \"allowList\" (site patterns).",
                check: { SitePattern($0) == nil ? SitePattern.allowed : nil }),
            .strings("hover.deny", \.hoverDeny, flag: nil, default: "(none)",
                "Hosts a hover never fetches, whatever hover.fetch says.",
                check: { SitePattern($0) == nil ? SitePattern.allowed : nil }),
        ] + httpKeys
    }

    static func oneLine(_ text: String) -> String? {
        // On scalars: every scalar that makes a `Character.isNewline` (LF,
        // VT, FF, CR, NEL, LS, PS) is a character of its own, or CR of CRLF.
        text.unicodeScalars.contains { scalar in
            (scalar.value >= 0x0A && scalar.value <= 0x0D) || scalar.value == 0x85 || scalar.value == 0x2028
                || scalar.value == 0x2029
        } ? "must be one line" : nil
    }

    static func headerValue(_ text: String) -> String? {
        // A value no longer in bytes than the limit in characters, without
        // control characters, passes the full check: skip its character count.
        if text.utf8.count <= ParamRanges.maxHeaderValueLength,
            !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F })
        {
            return nil
        }
        return ParamRanges.checkHeaderValue(text, field: "").map { _ in
            "must be at most \(ParamRanges.maxHeaderValueLength) characters without control characters"
        }
    }
}
