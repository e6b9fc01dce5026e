import Curl
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// The checks and defaults of the network settings (issue 11), shared by the
/// CLI's `validate()` and the daemon's `initialize`.
extension Settings {
    /// The first `resolve` entry that is not `HOST:PORT:ADDR`, as a sentence
    /// naming `field` (`--resolve`, `initializationOptions.resolve[2]`).
    public static func resolveProblem(_ entries: [String], field: (Int) -> String) -> String? {
        for (index, entry) in entries.enumerated() {
            if case .failure(let problem) = NameOverride.parse(entry, field: field(index)) { return problem.message }
        }
        return nil
    }

    /// A sentence naming `field` when `path` is not an existing file
    /// (`directory` false) or directory (true).
    public static func pathProblem(_ path: String?, directory: Bool, field: String) -> String? {
        guard let path else { return nil }
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory == directory else {
            return "\(field) must name an existing \(directory ? "directory" : "file"): \(path)"
        }
        return nil
    }

    /// The CA file curl is given: `caFile`, else `$SSL_CERT_FILE` (as
    /// OpenSSL programs read it), else nil for the system store.
    var effectiveCAFile: String? { caFile ?? Self.environment("SSL_CERT_FILE") }
    /// The CA directory: `caPath`, else `$SSL_CERT_DIR` (its first entry when it lists several).
    var effectiveCAPath: String? {
        caPath ?? Self.environment("SSL_CERT_DIR")?.split(separator: ":").first.map(String.init)
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
