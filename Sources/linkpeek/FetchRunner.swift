import FoundationEssentials
import LinkPeek
import TextTrimming

/// URLs from the arguments, then stdin (one per line, blank lines skipped).
struct URLSource: Sendable {
    var arguments: [String]
    var readStdin: Bool

    func makeIterator() -> AnyIterator<String> {
        var pending = arguments[...]
        var stdinDone = !readStdin
        return AnyIterator {
            if let next = pending.popFirst() { return next }
            while !stdinDone {
                guard let line = readLine(strippingNewline: true) else {
                    stdinDone = true
                    return nil
                }
                let url = line.trimmedSpaces
                if !url.isEmpty { return url }
            }
            return nil
        }
    }
}

/// Runs fetches with at most `concurrency` at once and prints each result
/// as soon as every earlier one is printed, so output keeps input order
/// without waiting for the whole batch.
struct FetchRunner {
    let engine: LinkPeekEngine
    let options: FetchOptions
    let concurrency: Int

    /// One fetch as a `Result`: the preview with the cache entry stored
    /// for it, whose JSON the line is printed from (`FetchedPreview.json`).
    /// (A `do throws(FetchError)` block written inside the task-group
    /// closure was miscompiled by Swift 6.3.1 in release builds and
    /// crashed; a plain function is fine.)
    static func fetchOne(_ url: String, engine: LinkPeekEngine, options: FetchOptions) async
        -> Result<FetchedPreview, FetchError>
    {
        do {
            return .success(try await engine.fetch(PreviewRequest(url: url, options: options)))
        } catch {
            return .failure(error)
        }
    }

    /// The card image of a fetched preview, when the printer shows one
    /// (Markdown and HTML cards): the same thumbnail as the hover card's.
    static func cardImage(for outcome: Result<FetchedPreview, FetchError>, engine: LinkPeekEngine, wanted: Bool) async
        -> CardImage?
    {
        guard wanted, case .success(let fetched) = outcome else { return nil }
        return await engine.cardImage(for: fetched.metadata, allowNetwork: true)
    }

    /// Returns how many fetches failed.
    func run(source: URLSource, printer: ResultPrinter, progress: ProgressLine) async -> Int {
        let urls = source.makeIterator()
        var failures = 0
        var finished: [Int: (String, Result<FetchedPreview, FetchError>, CardImage?)] = [:]
        var nextToPrint = 0
        var started = 0
        let images = printer.showsImages
        // Loads one at a time (`--concurrency 1`) write their cache entries together too.
        engine.beginBatch()
        defer { engine.endBatch() }
        if concurrency == 1 {
            // One at a time: fetched in this task, with no child task to
            // start and no waiting parent to wake for each URL.
            while let url = urls.next() {
                started += 1
                let outcome = await Self.fetchOne(url, engine: engine, options: options)
                let image = await Self.cardImage(for: outcome, engine: engine, wanted: images)
                if case .failure = outcome { failures += 1 }
                progress.clear()
                printer.emitFetched(outcome, url: url, image: image)
                nextToPrint += 1
                progress.show(done: nextToPrint, failed: failures, started: started)
            }
            return failures
        }
        await withTaskGroup(of: (Int, String, Result<FetchedPreview, FetchError>, CardImage?).self) { group in
            func startNext() -> Bool {
                guard let url = urls.next() else { return false }
                let index = started
                started += 1
                group.addTask { [engine, options, images] in
                    let outcome = await Self.fetchOne(url, engine: engine, options: options)
                    return (index, url, outcome, await Self.cardImage(for: outcome, engine: engine, wanted: images))
                }
                return true
            }
            for _ in 0..<concurrency where !startNext() { break }
            while let (index, url, outcome, image) = await group.next() {
                finished[index] = (url, outcome, image)
                while let (url, outcome, image) = finished.removeValue(forKey: nextToPrint) {
                    if case .failure = outcome { failures += 1 }
                    progress.clear()
                    printer.emitFetched(outcome, url: url, image: image)
                    nextToPrint += 1
                }
                progress.show(done: nextToPrint, failed: failures, started: started)
                _ = startNext()
            }
        }
        return failures
    }
}

/// A one-line progress display on stderr, for people watching a terminal.
struct ProgressLine {
    let enabled: Bool

    func show(done: Int, failed: Int, started: Int) {
        guard enabled else { return }
        StandardIO.writeError("\r\u{1B}[K\(done) done, \(failed) failed, \(started - done) running")
    }

    func clear() {
        guard enabled else { return }
        StandardIO.writeError("\r\u{1B}[K")
    }
}
