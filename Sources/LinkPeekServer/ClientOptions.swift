import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

/// What a client sends as `initializationOptions` or in
/// `workspace/didChangeConfiguration`: one layer of preferences (the keys
/// of `OptionKey.all`, by the same names; `hover.fetch` is `hover: {fetch}`),
/// and the run's modes, which are no preferences (the file has no key for
/// them): recording, replaying and the fixed clock.
struct ClientOptions: Sendable, Equatable {
    var options = Options()
    var record: String?
    var replay: String?
    var replayFallback: Bool?
    var clock: String?

    /// This layer, with what it leaves out taken from `lower` (a
    /// `didChangeConfiguration` over what the client sent before).
    func merged(over lower: ClientOptions) -> ClientOptions {
        ClientOptions(
            options: options.merged(over: lower.options), record: record ?? lower.record, replay: replay ?? lower.replay,
            replayFallback: replayFallback ?? lower.replayFallback, clock: clock ?? lower.clock)
    }

    /// The modes on `settings`, where the command line set none (a flag
    /// beats the client, as for every preference).
    func applyModes(to settings: inout Settings) {
        if settings.record == nil { settings.record = record }
        if settings.replay == nil { settings.replay = replay }
        if !settings.replayFallback { settings.replayFallback = replayFallback ?? false }
        if settings.clock == nil { settings.clock = clock }
    }
}

extension Options {
    /// The client's settings object as one layer, checked as the flags
    /// are: nil or `null` is an empty layer; a value of the wrong type or out
    /// of range is a sentence naming it under `field`
    /// ("initializationOptions.timeout must be …"). Members that are no key
    /// are ignored, as LSP clients send their own. `cacheDir` names the
    /// cache's directory (`cache = true`), or with `null` keeps it in memory
    /// (`cache = false`).
    static func client(_ value: JSONValue?, field: String) -> Result<ClientOptions, ResponseError> {
        var reader = ClientReader(field: field)
        switch value {
        case nil, .null?: return .success(ClientOptions())
        case .object(let members)?: reader.read(members)
        default: return .failure(.invalidParams("\(field) must be an object"))
        }
        return reader.problem.map { .failure(.invalidParams($0)) } ?? .success(reader.result)
    }
}

/// Reads one client settings object; the first problem found wins.
private struct ClientReader {
    let field: String
    var result = ClientOptions()
    /// Each key's value as sent (a word a choice does not know reads back as nil).
    var values: [(key: OptionKey, value: OptionValue)] = []
    var problem: String?

    init(field: String) {
        self.field = field
    }

    mutating func read(_ members: [String: JSONValue]) {
        for key in OptionKey.all {
            guard problem == nil, let json = member(key.name, of: members), json != .null else { continue }
            let path = "\(field).\(key.name)"
            // The HTTP service's keys belong to the process that listens:
            // a client's value would change nothing, so it is refused.
            if key.name.hasPrefix("http.") {
                problem = "\(path) is set by serve --http's flags, LINKPEEK_HTTP_* or [http] in the file, not by a client"
                continue
            }
            switch Self.value(json, of: key.kind, at: path) {
            case .value(let value):
                result.options[key] = value
                values.append((key, value))
            case .problem(let message): problem = message
            }
        }
        // `cacheDir` chooses between a directory and memory only.
        switch members["cacheDir"] {
        case .null?: result.options.cache = false
        case .string?: result.options.cache = true
        default: break
        }
        readModes(members)
        if problem == nil { problem = checks() }
    }

    /// `hover.fetch` is `hover: {fetch}`.
    private mutating func member(_ name: String, of members: [String: JSONValue]) -> JSONValue? {
        let parts = name.split(separator: ".").map(String.init)
        var current: [String: JSONValue] = members
        for (index, part) in parts.enumerated() {
            guard let value = current[part] else { return nil }
            if index == parts.count - 1 { return value }
            if value == .null { return nil }
            guard case .object(let inner) = value else {
                problem = "\(field).\(parts[...index].joined(separator: ".")) must be an object"
                return nil
            }
            current = inner
        }
        return nil
    }

    private mutating func readModes(_ members: [String: JSONValue]) {
        guard problem == nil else { return }
        func string(_ name: String) -> String? {
            switch members[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default:
                problem = problem ?? "\(field).\(name) must be a string"
                return nil
            }
        }
        result.record = string("record")
        result.replay = string("replay")
        result.clock = string("clock")
        switch members["replayFallback"] {
        case nil, .null?: break
        case .bool(let on)?: result.replayFallback = on
        default: problem = problem ?? "\(field).replayFallback must be a boolean"
        }
    }

    private enum Read {
        case value(OptionValue)
        case problem(String)
    }

    /// One member as the value its key holds, or the sentence for a value of the wrong type.
    private static func value(_ json: JSONValue, of kind: OptionKind, at path: String) -> Read {
        switch (kind, json) {
        case (.bool, .bool(let on)), (.switchOrNames, .bool(let on)): return .value(.bool(on))
        case (.number, _):
            return json.doubleValue.map { .value(.number($0)) } ?? .problem("\(path) must be a number")
        case (.string, .string(let text)), (.choice, .string(let text)): return .value(.string(text))
        case (.strings, .array(let items)), (.switchOrNames, .array(let items)):
            var strings: [String] = []
            for (index, item) in items.enumerated() {
                guard case .string(let text) = item else { return .problem("\(path)[\(index)] must be a string") }
                strings.append(text)
            }
            return .value(.strings(strings))
        case (.bool, _): return .problem("\(path) must be a boolean")
        case (.string, _), (.choice, _): return .problem("\(path) must be a string")
        case (.strings, _): return .problem("\(path) must be an array")
        case (.switchOrNames, _): return .problem("\(path) must be \(kind.allowed)")
        }
    }

    /// The rules beyond the types: the network settings by the check the
    /// CLI's flags share (`Settings.networkProblem`, with its own
    /// sentences), then each key's range and form (`OptionKey.problem`).
    private func checks() -> String? {
        let options = result.options
        return ParamRanges.checkHeaderValue(options.acceptLanguage, field: "\(field).acceptLanguage")
            ?? Settings.networkProblem(
                resolve: options.resolve ?? [], caFile: options.caFile, caPath: options.caPath, proxy: options.proxy,
                record: result.record, replay: result.replay, clock: result.clock
            ) { "\(field).\($0.member)" }
            ?? Settings.fleetProblem(options.fleet, field: "\(field).fleet")
            ?? Settings.fleetRateProblem(options.fleetOriginRate, field: "\(field).fleetOriginRate")
            ?? sitesProblem(options)
            ?? values.lazy.compactMap { key, value in key.problem(value).map { "\(field).\(key.name) \($0)" } }.first
    }

    /// A name in `sites` that is no engine's, a GitLab host that is no DNS name.
    private func sitesProblem(_ options: Options) -> String? {
        if let bad = options.gitlabHosts?.first(where: { !SiteURL.isHostName($0) }) {
            return "\(field).gitlabHosts has a name that is not a plain DNS name: \(bad)"
        }
        guard case .off(let names)? = options.sites else { return nil }
        let known = SiteEngines.all().map(\.name)
        return names.first { !known.contains($0) }.map {
            "\(field).sites names no site engine: \($0) (the engines: \(known.joined(separator: ", ")))"
        }
    }
}
