/// `render` (request): a preview card as text — `{url | metadata, format}`
/// → `{text}`. With `url`, the preview comes from the cache or a fetch (a
/// failed fetch gives a card that says why); with `metadata` (a
/// `LinkMetadata` object, read by the server) nothing is fetched.
public struct RenderParams: Codable, Sendable, Equatable {
    public static let method = "render"

    public var url: String?
    public var format: RenderFormat
    /// Columns for `text` (`ParamRanges.cardWidth`); default 80.
    public var width: Double?
    /// SGR colours in `text`; default false.
    public var color: Bool?
    /// The preview image in `markdown` and `html`; default true.
    public var includeImage: Bool?

    public init(url: String? = nil, format: RenderFormat, width: Double? = nil, color: Bool? = nil, includeImage: Bool? = nil) {
        self.url = url
        self.format = format
        self.width = width
        self.color = color
        self.includeImage = includeImage
    }

    public func validationError() -> String? {
        ParamRanges.cardWidth.check(width, field: "width")
    }
}

public enum RenderFormat: String, Codable, Sendable, CaseIterable, ParamValueDescribing {
    case markdown, html, text

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let raw = try? container.decode(String.self), let format = RenderFormat(rawValue: raw) else {
            throw DecodingError.typeMismatch(
                RenderFormat.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Self.expectedDescription))
        }
        self = format
    }

    public static var expectedDescription: String {
        "one of " + allCases.map(\.rawValue).joined(separator: ", ")
    }
}

public struct RenderResult: Codable, Sendable, Equatable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}
