/// Shapes shared by the LSP document messages (`textDocument/*`).
///
/// Positions arrive as numbers a client wrote, so they are read as `Double`
/// and checked against `ParamRanges.position` before use (see
/// `NumberRange`); positions the daemon writes are plain integers.

/// `{uri}`: names an open document.
public struct TextDocumentIdentifier: Codable, Sendable, Equatable {
    public var uri: String

    public init(uri: String) {
        self.uri = uri
    }
}

/// A position a client sends: zero-based line, and character offset in the
/// negotiated position encoding (UTF-16 code units unless agreed otherwise).
public struct PositionParam: Codable, Sendable, Equatable {
    public var line: Double
    public var character: Double

    public init(line: Double, character: Double) {
        self.line = line
        self.character = character
    }

    /// The first rule broken, naming the field (`field` is e.g. "position").
    public func validationError(field: String) -> String? {
        ParamRanges.position.check(line, field: "\(field).line")
            ?? ParamRanges.position.check(character, field: "\(field).character")
    }

    /// Line and character as integers; valid once `validationError` is nil.
    public var integers: (line: Int, character: Int) {
        (ParamRanges.position.integer(line) ?? 0, ParamRanges.position.integer(character) ?? 0)
    }
}

/// A range a client sends (in `didChange`).
public struct RangeParam: Codable, Sendable, Equatable {
    public var start: PositionParam
    public var end: PositionParam

    public init(start: PositionParam, end: PositionParam) {
        self.start = start
        self.end = end
    }

    public func validationError(field: String) -> String? {
        start.validationError(field: "\(field).start") ?? end.validationError(field: "\(field).end")
    }
}

/// A position the daemon writes.
public struct LSPPosition: Codable, Sendable, Equatable {
    public var line: Int
    public var character: Int

    public init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }
}

/// A range the daemon writes (end exclusive).
public struct LSPRange: Codable, Sendable, Equatable {
    public var start: LSPPosition
    public var end: LSPPosition

    public init(start: LSPPosition, end: LSPPosition) {
        self.start = start
        self.end = end
    }
}
