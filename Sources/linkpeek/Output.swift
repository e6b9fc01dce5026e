import FoundationEssentials
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

/// Writes results to stdout: one JSON object per line (or pretty-printed),
/// or a short human summary on a terminal when asked.
struct ResultPrinter {
    var pretty: Bool

    private var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The error line: `{"originalURL": …, "error": {kind, reason, message, status?}}`.
    struct Failure: Encodable {
        struct Body: Encodable {
            var kind: String
            var reason: String?
            var message: String
            var status: Int?
            var fromCache: Bool?
            var stale: Bool?
        }
        var originalURL: String
        var error: Body
    }

    func line(for outcome: Result<LinkMetadata, FetchError>, url: String) -> String {
        let data: Data?
        switch outcome {
        case .success(let metadata):
            data = try? encoder.encode(metadata)
        case .failure(let error):
            let body = Failure.Body(
                kind: error.kind.rawValue, reason: error.reason?.rawValue, message: error.message,
                status: error.status, fromCache: error.fromCache ? true : nil, stale: error.stale ? true : nil)
            data = try? encoder.encode(Failure(originalURL: url, error: body))
        }
        return data.map { String(decoding: $0, as: UTF8.self) } ?? "{\"originalURL\":null}"
    }

    func emit(_ outcome: Result<LinkMetadata, FetchError>, url: String) {
        let text = line(for: outcome, url: url) + "\n"
        StandardIO.write(text, to: STDOUT_FILENO)
    }
}
