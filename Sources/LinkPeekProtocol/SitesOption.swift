/// `initializationOptions.sites`: `true` or `false` for every site engine,
/// or a list of the engines to turn off (`["github", "wikipedia"]`).
public enum SitesOption: Codable, Sendable, Equatable {
    case all(Bool)
    case off([String])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let on = try? container.decode(Bool.self) {
            self = .all(on)
        } else {
            self = .off(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .all(let on): try container.encode(on)
        case .off(let names): try container.encode(names)
        }
    }
}
