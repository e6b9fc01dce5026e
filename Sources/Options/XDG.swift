/// The XDG base directory rule, the one place linkpeek applies it: the
/// cache under `$XDG_CACHE_HOME`, the configuration under
/// `$XDG_CONFIG_HOME`, each else under `$HOME`. A relative or empty XDG
/// variable is ignored, as the specification says; with no `HOME` either,
/// `/tmp` stands in for it, so no path is ever relative to the working
/// directory (`/.cache/…` nor `.cache/…`).
public enum XDG {
    public static func cacheDirectory(_ environment: [String: String]) -> String {
        base("XDG_CACHE_HOME", fallback: ".cache", environment) + "/linkpeek"
    }

    /// Where the configuration file is read from when neither `--config`
    /// nor `LINKPEEK_CONFIG` names one.
    public static func configFile(_ environment: [String: String]) -> String {
        base("XDG_CONFIG_HOME", fallback: ".config", environment) + "/linkpeek/config.toml"
    }

    private static func base(_ variable: String, fallback: String, _ environment: [String: String]) -> String {
        if let xdg = environment[variable], xdg.hasPrefix("/") { return xdg }
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return home + "/" + fallback
    }
}
