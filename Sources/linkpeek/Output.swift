import FoundationEssentials
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

/// Writes results to stdout in one of two modes: JSON, one object per URL
/// (one line each; indented over several lines with `--pretty`), or a card
/// per URL (`--format markdown|html|text`), cards separated by a blank line.
final class ResultPrinter {
    let pretty: Bool
    let format: OutputFormat
    let textStyle: TextCard.Style
    private var printed = 0

    init(pretty: Bool, format: OutputFormat = .json, textStyle: TextCard.Style = .init(color: false, width: 80)) {
        self.pretty = pretty
        self.format = format
        self.textStyle = textStyle
    }

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
        defer { printed += 1 }
        guard let cardFormat = format.card else {
            return StandardIO.write(line(for: outcome, url: url) + "\n", to: STDOUT_FILENO)
        }
        let card: LinkCard
        switch outcome {
        case .success(let metadata): card = LinkCard(metadata: metadata)
        case .failure(let error): card = LinkCard(originalURL: url, failure: error)
        }
        let separator = printed > 0 ? "\n" : ""
        StandardIO.write(separator + cardFormat.render(card, textStyle: textStyle) + "\n", to: STDOUT_FILENO)
    }
}
