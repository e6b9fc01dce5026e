import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    func currentService() -> any MetadataService {
        if let service { return service }
        let made = makeService(settings)
        service = made
        return made
    }

    func initialize(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard case .running(initialized: false) = lifecycle else {
            return responder.respond(.error(id, .invalidRequest("initialize may only be sent once")))
        }
        guard let params = requestParams(InitializeParams.self, rawParams, id, responder,
            also: { $0.initializationOptions?.networkProblem() }) else { return }
        if let options = params.initializationOptions {
            clientOptions.append(options)
            settings.apply(options)
            lsp.apply(options)
            // Requests served before initialize keep the service they started with.
            service = nil
        }
        lsp.positionEncoding = PositionEncoding.negotiate(offered: params.capabilities?.general?.positionEncodings)
        lsp.hoverFormat = HoverFormat.negotiate(offered: params.capabilities?.textDocument?.hover?.contentFormat)
        lifecycle = .running(initialized: true)
        sendPendingNotices()
        let result = InitializeResult(
            capabilities: ServerCapabilities(positionEncoding: lsp.positionEncoding.rawValue),
            serverInfo: ServerInfo(name: Self.name, version: Settings.version),
            settings: settingsInEffect())
        responder.respond(.response(id: id, result: encodeResult(result)))
    }

    func cancel(_ id: RequestID, _ params: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(CancelParams.self, params, id, responder) else { return }
        let cancelled = providers.running[params.providerId].map { cancelRequest($0) } ?? false
        responder.respond(.response(id: id, result: encodeResult(CancelResult(cancelled: cancelled))))
    }

    func getCached(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(GetCachedParams.self, rawParams, id, responder) else { return }
        let service = currentService()
        // In the table first: the task below may complete the request before it returns.
        requests[id] = InFlight(task: nil, provider: nil, reporter: nil, responder: responder)
        // `Task.immediate` runs on this actor at once, up to its first
        // suspension: a hit is answered here and now, instead of as one more
        // job on the actor (which cost a thread wake-up per request).
        let task = Task.immediate {
            // The bytes kept in the cache entry are spliced into the response as they are.
            let result: Result<JSONValue, ResponseError> =
                switch await service.cachedOutcome(url: params.url, acceptLanguage: params.acceptLanguage) {
                case .preview(let json)?: .success(.raw(RawJSON(trusted: json)))
                case .failure(let error)?: .failure(ResponseError(error))
                case nil: .success(.null)
                }
            self.complete(id, with: result)
        }
        // Still running (the cache suspended): keep the task so that it can be cancelled.
        requests[id]?.task = task
    }

    /// Answers the running request `id` with `result`, once: removes it from
    /// the table, ends its progress (before the response), frees its
    /// provider id. Does nothing if it was already answered (a late result
    /// after a cancel).
    func complete(_ id: RequestID, with result: Result<JSONValue, ResponseError>) {
        guard let entry = requests.removeValue(forKey: id) else { return }
        noteCompletion()
        if let provider = entry.provider { providers.finish(provider) }
        for token in entry.tokens { progressTokens[token] = nil }
        switch result {
        case .success: entry.reporter?.end(message: "done")
        case .failure(let error): entry.reporter?.end(message: error.message)
        }
        entry.responder.respond(.response(id: id, result: result))
    }

    /// Cancels the running request `id`: answers it -32800 at once (without
    /// waiting for the service to notice) and cancels its task. False if it
    /// is not running.
    @discardableResult
    func cancelRequest(_ id: RequestID) -> Bool {
        guard let entry = requests[id] else { return false }
        entry.task?.cancel()
        complete(id, with: .failure(entry.provider == nil ? .cancelled : ResponseError(FetchError.cancelled)))
        return true
    }

    /// Ends the session: every running request is cancelled and answered.
    func cancelAll() {
        for id in requests.keys { cancelRequest(id) }
        prefetchQueue.removeAll()
        for flight in previews.values { flight.cancel() }
    }

    /// Checks a request's progress tokens: nil when they can be used, else
    /// the error to answer. Equal work-done and partial-result tokens are a
    /// bad pair of params (-32602); a token that a running request still
    /// uses is refused like a request id in use (-32600), since the same
    /// value is fine once that request is answered.
    func tokenConflict(workDone: ProgressToken?, partialResult: ProgressToken?) -> ResponseError? {
        if let workDone, workDone == partialResult {
            return .invalidParams("partialResultToken must differ from workDoneToken")
        }
        if let workDone, progressTokens[workDone] != nil {
            return .invalidRequest("workDoneToken \(workDone) is in use by a running request")
        }
        if let partialResult, progressTokens[partialResult] != nil {
            return .invalidRequest("partialResultToken \(partialResult) is in use by a running request")
        }
        return nil
    }

    /// Marks the tokens used by request `id` until it is answered.
    func claimTokens(_ tokens: [ProgressToken?], for id: RequestID) -> [ProgressToken] {
        let claimed = tokens.compactMap { $0 }
        for token in claimed { progressTokens[token] = id }
        return claimed
    }
}

/// `value` as a result, or an internal error if it cannot be encoded. It is
/// encoded straight to bytes, not to a `JSONValue` tree that the writer would
/// walk again.
func encodeResult(_ value: some Encodable) -> Result<JSONValue, ResponseError> {
    do {
        return .success(.raw(try RawJSON(encoding: value)))
    } catch {
        return .failure(.internalError("Internal error: could not encode the result"))
    }
}

extension InitializationOptions {
    /// What the daemon checks beyond the protocol types: the network
    /// settings, by the check the CLI's flags share (`Settings.networkProblem`).
    func networkProblem() -> String? {
        Settings.networkProblem(
            resolve: resolve ?? [], caFile: caFile, caPath: caPath, proxy: proxy,
            record: record, replay: replay, clock: clock
        ) { "initializationOptions.\($0.member)" }
            ?? Settings.fleetProblem(fleet, field: "initializationOptions.fleet")
            ?? Settings.fleetRateProblem(fleetOriginRate, field: "initializationOptions.fleetOriginRate")
            ?? sitesProblem()
    }

    /// A name in `sites` that is no engine's.
    private func sitesProblem() -> String? {
        if let bad = gitlabHosts?.first(where: { !SiteURL.isHostName($0) }) {
            return "initializationOptions.gitlabHosts has a name that is not a plain DNS name: \(bad)"
        }
        guard case .off(let names)? = sites else { return nil }
        let known = SiteEngines.all().map(\.name)
        return names.first { !known.contains($0) }.map {
            "initializationOptions.sites names no site engine: \($0) (the engines: \(known.joined(separator: ", ")))"
        }
    }
}

extension Settings {
    mutating func apply(_ options: InitializationOptions) {
        if let value = options.allowPrivateNetwork { allowPrivateNetwork = value }
        if let value = options.userAgent { userAgent = value }
        if let value = options.timeout { timeout = value }
        switch options.cache {
        case .directory(let path)?:
            cacheDir = path
            cacheEnabled = true
        case .memoryOnly?:
            cacheEnabled = false
        case nil:
            break
        }
        // Checked against `ParamRanges.cacheSize` before this runs.
        if let mebibytes = options.cacheSize.flatMap(ParamRanges.cacheSize.integer) {
            cacheSizeLimit = mebibytes * 1024 * 1024
        }
        // Checked against `ParamRanges.maxConcurrency` before this runs.
        if let value = options.maxConcurrency.flatMap(ParamRanges.maxConcurrency.integer) { maxConcurrency = value }
        // Real networks: name overrides, CA certificates, proxies, recording.
        if let value = options.resolve { resolve = value }
        if let value = options.caFile { caFile = value }
        if let value = options.caPath { caPath = value }
        if let value = options.proxy { proxy = value }
        if let value = options.noProxy { noProxy = value }
        if let value = options.record { record = value }
        if let value = options.replay { replay = value }
        if let value = options.replayFallback { replayFallback = value }
        if let value = options.clock { clock = value }
        if let value = options.oembed { oembed = value }
        if case .all(let on)? = options.sites { sites = on }
        if case .off(let names)? = options.sites { sitesOff = names }
        if let value = options.gitlabHosts { gitlabHosts = value.map { $0.lowercased() } }
        if let value = options.acceptLanguage { acceptLanguage = value }
        // Fleet mode; both checked by `networkProblem` before this runs.
        if let value = options.fleet { fleet = value }
        if let value = options.fleetOriginRate.flatMap({ Int(exactly: $0) }) { fleetOriginRate = value }
    }
}
