/// The media stage: a loaded preview's subresources (icon, image) fetched
/// and verified (`LinkPeekEngine.loadSubresources`, `+Media`) when the
/// request asks for them, with bytes when any caller sharing the flight
/// wants them (each gets what it asked for: `withData`).
struct MediaStage: Sendable {
    func answer(
        _ metadata: LinkMetadata, options: FetchOptions, flight: FlightContext, engine: LinkPeekEngine
    ) async -> LinkMetadata {
        guard options.fetchSubresources else { return metadata }
        var shared = options
        shared.includeData = flight.demand().data
        return await engine.loadSubresources(of: metadata, options: shared, events: flight.send)
    }
}
