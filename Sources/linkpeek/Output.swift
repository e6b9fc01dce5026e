import FoundationEssentials
import JSON
import LinkPeek
import LinkPeekProtocol
import LinkPeekServer

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

    /// The error line: `{"originalURL": …, "error": {message, …FetchErrorData}}`
    /// (the daemon's error `data`, with the message beside it).
    struct Failure: Encodable {
        struct Body: Encodable {
            var data: FetchErrorData
            var message: String

            private enum CodingKeys: String, CodingKey {
                case message
            }

            func encode(to encoder: any Encoder) throws {
                try data.encode(to: encoder)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(message, forKey: .message)
            }
        }
        var originalURL: String
        var error: Body
    }

    /// The line's UTF-8, without its newline. A result that cannot be
    /// encoded (not expected: a preview is strings and numbers) keeps its
    /// line, `{"originalURL":null}`, and stderr says why.
    func lineBytes(for outcome: Result<LinkMetadata, FetchError>, url: String) -> [UInt8] {
        do {
            switch outcome {
            case .success(let metadata):
                return try encode(metadata)
            case .failure(let error):
                let body = Failure.Body(data: FetchErrorData(error), message: error.message)
                return try encode(Failure(originalURL: url, error: body))
            }
        } catch {
            StandardIO.writeError("linkpeek: cannot write the result for \(url) as JSON: \(error)\n")
            return Array("{\"originalURL\":null}".utf8)
        }
    }

    /// Lines as the wire writes them (`WireJSON.bytes`), indented with `--pretty`.
    private func encode(_ value: some Encodable) throws -> [UInt8] {
        try WireJSON.bytes(of: value, pretty: pretty)
    }

    /// Whether the cards printed embed an image (Markdown and HTML do; `image` is its thumbnail).
    var showsImages: Bool { format == .markdown || format == .html }

    func emit(_ outcome: Result<LinkMetadata, FetchError>, url: String, image: CardImage? = nil) {
        defer { printed += 1 }
        guard let cardFormat = format.card else {
            var bytes = lineBytes(for: outcome, url: url)
            bytes.append(UInt8(ascii: "\n"))
            StandardIO.write(bytes: bytes, to: STDOUT_FILENO)
            return
        }
        var card: LinkCard
        switch outcome {
        case .success(let metadata): card = LinkCard(metadata: metadata)
        case .failure(let error): card = LinkCard(originalURL: url, failure: error)
        }
        card.image = image
        let separator = printed > 0 ? "\n" : ""
        StandardIO.write(separator + cardFormat.render(card, textStyle: textStyle) + "\n", to: STDOUT_FILENO)
    }
}
