import FoundationEssentials

extension JSONEncoder.OutputFormatting {
    /// The one output configuration of linkpeek's JSON (the daemon's
    /// messages, the CLI's lines, the cache's previews): sorted keys keep
    /// output stable; unescaped slashes keep URLs readable. `JSONWriter` and
    /// `WireJSON` write the same bytes by hand.
    public static let wire: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
}

extension JSONEncoder {
    /// A `JSONEncoder` with the `wire` formatting, pretty-printed when asked
    /// (the CLI's `--pretty`, a recorded tape's index).
    public static func wire(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? OutputFormatting.wire.union(.prettyPrinted) : .wire
        return encoder
    }

    /// A `JSONEncoder` with the `wire` formatting.
    public static var wire: JSONEncoder { wire(pretty: false) }
}
