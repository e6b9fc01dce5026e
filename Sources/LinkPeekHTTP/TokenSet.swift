import FoundationEssentials
import TextTrimming

/// The bearer tokens of `--http-token-file`: one a line; blank lines and
/// lines starting with `#` are skipped. A request's token is compared with
/// each in time that depends on neither where they differ nor which matched.
public struct TokenSet: Sendable {
    let tokens: [[UInt8]]

    public init(tokens: [String]) {
        self.tokens = tokens.map { Array($0.utf8) }
    }

    /// The tokens in the file at `path`; an error sentence when it cannot be
    /// read or holds none.
    public static func load(path: String) -> Result<TokenSet, TokenFileProblem> {
        guard let data = FileManager.default.contents(atPath: path), let text = String(validating: data, as: UTF8.self)
        else { return .failure(TokenFileProblem(message: "cannot read the token file \(path)")) }
        let tokens = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).compactMap { line -> String? in
            let token = String(line).trimmedWhitespace
            return token.isEmpty || token.hasPrefix("#") ? nil : token
        }
        guard !tokens.isEmpty else { return .failure(TokenFileProblem(message: "the token file \(path) holds no token")) }
        if tokens.contains(where: { $0.utf8.contains { $0 < 0x21 || $0 > 0x7E } }) {
            return .failure(TokenFileProblem(message: "the token file \(path) has a token with a space or a control character"))
        }
        return .success(TokenSet(tokens: tokens))
    }

    /// Whether `candidate` is one of the tokens. Every token is compared in
    /// full, with the same work whatever the bytes (no early exit).
    public func accepts(_ candidate: some Collection<UInt8>) -> Bool {
        var found: UInt8 = 0
        for token in tokens {
            found |= Self.equal(token, candidate)
        }
        return found == 1
    }

    /// 1 when equal, else 0, in time that depends on the lengths only.
    static func equal(_ token: [UInt8], _ candidate: some Collection<UInt8>) -> UInt8 {
        var difference: UInt8 = token.count == candidate.count ? 0 : 1
        var index = candidate.startIndex
        for byte in token {
            let other: UInt8
            if index != candidate.endIndex {
                other = candidate[index]
                index = candidate.index(after: index)
            } else {
                other = ~byte
            }
            difference |= byte ^ other
        }
        return difference == 0 ? 1 : 0
    }
}

public struct TokenFileProblem: Error, Sendable {
    public let message: String
}
