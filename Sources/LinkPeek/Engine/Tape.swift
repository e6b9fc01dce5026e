import FoundationEssentials
import JSON
import Synchronization
import Logging

/// Recorded responses for test harnesses (`--record DIR`, `--replay DIR`):
/// what VCR or vcrpy give a test suite. A readable layout a harness can
/// commit: `DIR/index.json` lists one entry per URL asked for (sorted by
/// URL), and each body's bytes — only those linkpeek actually read — are in
/// `DIR/bodies/<16 hex digits of the URL's FNV-1a hash>.bin`. A POST (a
/// site API's GraphQL query) is its own entry, told apart by `request`:
/// two POSTs of different bodies to one URL are two entries.
final class Tape: Sendable {
    /// One response as linkpeek read it.
    struct Entry: Codable, Sendable, Equatable {
        /// The URL asked for.
        var url: String
        /// For a POST, `POST ` and the FNV-1a hash of its body (16 hex
        /// digits); absent for a GET.
        var request: String?
        /// The URL that answered (after redirects).
        var finalURL: String
        var status: Int
        /// Header fields, names lowercased.
        var headers: [String: String]
        var redirects: [Redirect]
        /// The body file, relative to the tape's directory.
        var body: String
        var bytesRead: Int
        var truncated: Bool
    }

    struct Redirect: Codable, Sendable, Equatable {
        var url: String
        var status: Int
    }

    struct Index: Codable, Sendable {
        var version = 1
        var entries: [Entry] = []
    }

    let directory: URL
    private let entries: Mutex<[String: Entry]>

    private init(directory: URL, entries: [String: Entry]) {
        self.directory = directory
        self.entries = Mutex(entries)
    }

    /// A tape to record into: starts empty, keeps what `DIR/index.json`
    /// already holds (so several sessions can add to one tape). Throws when
    /// that index is there but unreadable: recording would write over it and
    /// lose every earlier entry.
    static func forRecording(at path: String) throws -> Tape {
        let directory = URL(filePath: path, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(
            at: directory.appending(path: "bodies"), withIntermediateDirectories: true)
        let index = directory.appending(path: "index.json").path(percentEncoded: false)
        let existing = FileManager.default.fileExists(atPath: index) ? try load(directory) : [:]
        return Tape(directory: directory, entries: existing)
    }

    /// A recorded tape to replay; throws when `DIR/index.json` is missing or unreadable.
    static func forReplay(at path: String) throws -> Tape {
        let directory = URL(filePath: path, directoryHint: .isDirectory)
        return Tape(directory: directory, entries: try load(directory))
    }

    private static func load(_ directory: URL) throws -> [String: Entry] {
        let data = try Data(contentsOf: directory.appending(path: "index.json"))
        let index = try JSONParser.parse([UInt8](data)).get().decode(Index.self)
        return Dictionary(index.entries.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// `Entry.request` for a request: nil for a GET.
    static func requestKey(method: String, body: [UInt8]?) -> String? {
        guard let body else { return nil }
        return "\(method) \(hash(body))"
    }

    /// The entry for `url` (and `request`, for a POST) and its body bytes, if recorded. An entry whose
    /// body file cannot be read is as good as not recorded, said at `warning`
    /// (the tape is damaged: a harness would otherwise see "not recorded").
    func lookup(_ url: String, request: String? = nil, logger: Logger) -> (Entry, [UInt8])? {
        let key = Entry.key(url: url, request: request)
        guard let entry = entries.withLock({ $0[key] }) else { return nil }
        do {
            return (entry, [UInt8](try Data(contentsOf: directory.appending(path: entry.body))))
        } catch {
            logger.warning("cannot read a body on the tape", metadata: [
                "url": "\(url)", "body": "\(entry.body)", "error": "\(error)",
            ])
            return nil
        }
    }

    /// Saves one response: its body file, then the whole index (sorted, so
    /// the same session always writes the same bytes). Errors are logged,
    /// not thrown: recording must never fail a fetch.
    func record(_ entry: Entry, body: [UInt8], logger: Logger) {
        var entry = entry
        entry.body = "bodies/" + Self.fileName(for: entry.key)
        do { try Data(body).write(to: directory.appending(path: entry.body), options: .atomic) } catch {
            logger.warning("cannot record a body on the tape", metadata: ["url": "\(entry.url)", "error": "\(error)"])
        }
        entries.withLock { entries in
            entries[entry.key] = entry
            let index = Index(entries: entries.values.sorted { $0.key < $1.key })
            do {
                try Data(WireJSON.bytes(of: index, pretty: true)).write(to: directory.appending(path: "index.json"), options: .atomic)
            } catch {
                logger.warning("cannot write the tape's index", metadata: ["error": "\(error)"])
            }
        }
    }

    /// A stable file name for an entry's key (a GET's URL): its `hash`.
    static func fileName(for key: String) -> String { hash(key.utf8) + ".bin" }

    /// FNV-1a, 64 bits, as 16 hex digits.
    static func hash(_ bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

extension Tape.Entry {
    /// What the tape knows the entry by: the URL, and for a POST its `request` after it.
    var key: String { Self.key(url: url, request: request) }

    static func key(url: String, request: String?) -> String { request.map { "\(url) \($0)" } ?? url }
}
