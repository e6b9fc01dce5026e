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

    /// A fetched preview's line: the JSON the cache entry stored for it
    /// (`FetchedPreview.json`, the same bytes encoding it again would
    /// give), indented with `--pretty`.
    func fetchedLineBytes(for outcome: Result<FetchedPreview, FetchError>, url: String) -> [UInt8] {
        guard case .success(let fetched) = outcome else {
            return lineBytes(for: outcome.map(\.metadata), url: url)
        }
        do {
            let compact = try fetched.json()
            return pretty ? JSONWriter.indented(compact) : compact
        } catch {
            return lineBytes(for: .success(fetched.metadata), url: url)
        }
    }

    /// Lines as the wire writes them (`WireJSON.bytes`), indented with `--pretty`.
    private func encode(_ value: some Encodable) throws -> [UInt8] {
        try WireJSON.bytes(of: value, pretty: pretty)
    }

    /// Whether the cards printed embed an image (Markdown and HTML do; `image` is its thumbnail).
    var showsImages: Bool { format == .markdown || format == .html }

    func emit(_ outcome: Result<LinkMetadata, FetchError>, url: String, image: CardImage? = nil) {
        guard format.card != nil else { return emitLine(lineBytes(for: outcome, url: url)) }
        emitCard(outcome, url: url, image: image)
    }

    /// A fetch's result: its line from the JSON already encoded for the cache.
    func emitFetched(_ outcome: Result<FetchedPreview, FetchError>, url: String, image: CardImage? = nil) {
        guard format.card != nil else { return emitLine(fetchedLineBytes(for: outcome, url: url)) }
        emitCard(outcome.map(\.metadata), url: url, image: image)
    }

    private func emitLine(_ line: [UInt8]) {
        printed += 1
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        StandardIO.write(bytes: bytes, to: STDOUT_FILENO)
    }

    private func emitCard(_ outcome: Result<LinkMetadata, FetchError>, url: String, image: CardImage?) {
        defer { printed += 1 }
        guard let cardFormat = format.card else { return }
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
