import TOMLKit

#if canImport(Glibc)
import Glibc
#endif

/// The configuration file, read: its options (with its `[[site]]` rules)
/// and every problem as one sentence. A problem leaves its key out and
/// keeps the rest, so a daemon runs with what is good and says what is not.
public struct ConfigFile: Sendable, Equatable {
    public let path: String
    public var options = Options()
    public var problems: [ConfigProblem] = []
    /// Sentences that are not errors (a token in a file others can read).
    public var warnings: [String] = []
    /// False when there was no file at the default location: not a problem.
    public var exists = true
    /// Whether the document came from `ConfigCache`, not the TOML parser.
    public internal(set) var fromCache = false

    init(path: String) { self.path = path }

    /// The file `--config`, `LINKPEEK_CONFIG` or the XDG rule names. A file
    /// missing at the default location is no file; one named and missing,
    /// or any file that cannot be read, is a problem (never an empty file).
    /// With `cache`, a file whose bytes are the cache's is not parsed again
    /// (`ConfigCache`); what is said about it (problems, the file mode's
    /// warning) is worked out afresh all the same.
    public static func load(named: String?, environment: [String: String], cache: ConfigCache? = nil) -> ConfigFile {
        let explicit = named ?? environment["LINKPEEK_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let path = explicit ?? XDG.configFile(environment)
        var file = ConfigFile(path: path)
        switch readBytes(path) {
        case .success(let (bytes, mode)):
            file.parse(bytes, cache: cache)
            if file.options.siteRules?.contains(where: { $0.token != nil }) == true, mode & 0o044 != 0 {
                file.warnings.append(
                    "\(path) holds a token and is readable by others (mode \(String(mode & 0o777, radix: 8))); chmod 600 it")
            }
        case .failure(let failure) where failure.errno == ENOENT && explicit == nil:
            file.exists = false
        case .failure(let failure):
            file.problems.append(ConfigProblem(
                file: path, line: 0,
                message: "could not be read (\(String(cString: strerror(failure.errno)))); none of it is applied"))
        }
        return file
    }

    /// Reads text given directly (tests, the fuzz target): as `load` does past the read.
    public static func parse(_ bytes: [UInt8], path: String, cache: ConfigCache? = nil) -> ConfigFile {
        var file = ConfigFile(path: path)
        file.parse(bytes, cache: cache)
        return file
    }

    /// The line of each `[[site]]` header, in order: one pass over the bytes.
    static func siteHeaderLines(_ bytes: [UInt8]) -> [Int] {
        bytes.withUnsafeBufferPointer { bytes in
            var lines: [Int] = []
            guard let base = bytes.baseAddress else { return lines }
            let header = "[[site]]".utf8
            var line = 1
            var start = 0
            while start < bytes.count {
                // The line's end: the next LF (found by `memchr`), else the end of the file.
                let end = memchr(base + start, 0x0A, bytes.count - start).map {
                    UnsafeRawPointer($0) - UnsafeRawPointer(base)
                } ?? bytes.count
                var first = start
                while first < end, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                if first < end, bytes[first] == 0x5B, bytes[first..<end].starts(with: header) { lines.append(line) }
                line += 1
                start = end + 1
            }
            return lines
        }
    }

    struct ReadFailure: Error {
        let errno: Int32
    }

    private static func readBytes(_ path: String) -> Result<([UInt8], mode_t), ReadFailure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(ReadFailure(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(ReadFailure(errno: errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(ReadFailure(errno: EISDIR)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= ConfigText.maxBytes {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(errno: errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .success((bytes, info.st_mode))
    }

    private mutating func parse(_ bytes: [UInt8], cache: ConfigCache?) {
        // A cache is used only for a file `ConfigText` could pass (its size, UTF-8).
        if let cache, bytes.count <= ConfigText.maxBytes, let text = String(validating: bytes, as: UTF8.self),
            let table = cache.document(for: path, source: bytes)
        {
            fromCache = true
            take(table, text: text, bytes: bytes)
            return
        }
        guard let (table, text) = parseTOML(bytes) else { return }
        cache?.keep(table, for: path, source: bytes)
        take(table, text: text, bytes: bytes)
    }

    /// The document toml++ reads from `bytes`, and the text; nil (with the
    /// problem) when `ConfigText` refuses it or it is not TOML.
    private mutating func parseTOML(_ bytes: [UInt8]) -> (ConfigTable, String)? {
        let text: String
        switch ConfigText.check(bytes) {
        case .success(let checked): text = checked
        case .failure(let refusal):
            problems.append(ConfigProblem(file: path, line: refusal.line, message: refusal.message + "; none of it is applied"))
            return nil
        }
        do {
            return (try ConfigTable(toml: text), text)
        } catch let error as TOMLParseError {
            problems.append(ConfigProblem(
                file: path, line: error.source.begin.line,
                message: "is not valid TOML (\(error.description)); none of it is applied"))
        } catch {
            problems.append(ConfigProblem(file: path, line: 0, message: "is not valid TOML; none of it is applied"))
        }
        return nil
    }

    private mutating func take(_ table: ConfigTable, text: String, bytes: [UInt8]) {
        var reader = TableReader(path: path, text: text)
        options = reader.options(table)
        if var rules = options.siteRules, !rules.isEmpty {
            // The rules that were kept, in order, each given its `[[site]]` line.
            let headers = Self.siteHeaderLines(bytes)
            var next = 0
            for index in rules.indices {
                while next < headers.count, reader.droppedRules.contains(next) { next += 1 }
                if next < headers.count { rules[index].line = headers[next] }
                next += 1
            }
            options.siteRules = rules
        }
        // In file order (the parser gives a table's keys sorted by name).
        problems = reader.problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
            .map(\.element)
    }
}
