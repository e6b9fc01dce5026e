/// The `value` of a work-done `$/progress`: `begin`, then `report`s, then
/// `end` (LSP shapes, plus the fetch `stage` and page `bytes` read so far).
public enum WorkDoneProgress: Codable, Sendable, Equatable {
    case begin(WorkDoneProgressBegin)
    case report(WorkDoneProgressReport)
    case end(WorkDoneProgressEnd)

    private enum CodingKeys: String, CodingKey { case kind }

    public init(from decoder: any Decoder) throws {
        let kind = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .kind)
        switch kind {
        case "begin": self = .begin(try WorkDoneProgressBegin(from: decoder))
        case "report": self = .report(try WorkDoneProgressReport(from: decoder))
        case "end": self = .end(try WorkDoneProgressEnd(from: decoder))
        default:
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown progress kind \(kind)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .begin(let value): try value.encode(to: encoder)
        case .report(let value): try value.encode(to: encoder)
        case .end(let value): try value.encode(to: encoder)
        }
    }
}

public struct WorkDoneProgressBegin: Codable, Sendable, Equatable {
    public var kind = "begin"
    public var title: String
    public var cancellable: Bool?
    public var message: String?
    /// Never sent by linkpeek (the size is unknown); kept for the LSP shape.
    public var percentage: Int?
    public var stage: String?
    public var bytes: Int?

    public init(title: String, cancellable: Bool? = true, message: String? = nil, stage: String? = nil, bytes: Int? = nil) {
        self.title = title
        self.cancellable = cancellable
        self.message = message
        self.stage = stage
        self.bytes = bytes
    }
}

public struct WorkDoneProgressReport: Codable, Sendable, Equatable {
    public var kind = "report"
    public var message: String?
    public var percentage: Int?
    public var stage: String?
    public var bytes: Int?

    public init(message: String? = nil, stage: String? = nil, bytes: Int? = nil) {
        self.message = message
        self.stage = stage
        self.bytes = bytes
    }
}

public struct WorkDoneProgressEnd: Codable, Sendable, Equatable {
    public var kind = "end"
    public var message: String?
    public var stage: String?
    public var bytes: Int?

    public init(message: String? = nil, stage: String? = nil, bytes: Int? = nil) {
        self.message = message
        self.stage = stage
        self.bytes = bytes
    }
}
