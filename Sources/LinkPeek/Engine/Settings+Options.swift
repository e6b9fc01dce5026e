import LinkPeekProtocol
import Options

extension Settings {
    /// The merged preferences (`OptionLayers.merged`) on these settings: the
    /// one place an `Options` value reaches the engine. Each absent key
    /// keeps the value already here. Values were checked against their
    /// `OptionKey` before they reached a layer.
    public mutating func apply(_ options: Options) {
        if let value = options.allowPrivateNetwork { allowPrivateNetwork = value }
        if let value = options.allowNetwork { allowedNetworks = value }
        if let value = options.userAgent { userAgent = value }
        if let value = options.timeout { timeout = value }
        if let value = options.maxConcurrency.flatMap(ParamRanges.maxConcurrency.integer) { maxConcurrency = value }
        if let value = options.cacheDir { cacheDir = value }
        if let value = options.cache { cacheEnabled = value }
        if let mebibytes = options.cacheSize.flatMap(ParamRanges.cacheSize.integer) {
            cacheSizeLimit = mebibytes * 1024 * 1024
        }
        if let value = options.acceptLanguage { acceptLanguage = value }
        if let value = options.resolve { resolve = value }
        if let value = options.caFile { caFile = value }
        if let value = options.caPath { caPath = value }
        if let value = options.proxy { proxy = value }
        if let value = options.noProxy { noProxy = value }
        if let value = options.oembed { oembed = value }
        if let value = options.fleet { fleet = value }
        if let value = options.fleetOriginRate.flatMap({ Int(exactly: $0) }) { fleetOriginRate = value }
        if case .all(let on)? = options.sites { sites = on }
        if case .off(let names)? = options.sites { sitesOff = names }
        if let value = options.gitlabHosts { gitlabHosts = value.map { $0.lowercased() } }
        if let value = options.siteRules { siteRules = value }
    }
}
