import ArgumentParser
import FoundationEssentials
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

extension CacheCommand {
    /// `linkpeek cache time`: a benchmark seam (hidden). Reads URLs from
    /// stdin and looks each up as `getCached` does, in this process, on a
    /// fresh engine (so the memory level starts cold); prints one JSON object
    /// with the count of hits and the latency percentiles in microseconds.
    /// `Benchmarks/bench_cache.py` uses it.
    struct Time: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Time in-process cache lookups of the URLs on stdin (a benchmark seam).",
            shouldDisplay: false)

        @OptionGroup var cacheOptions: CacheOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            var settings = Settings()
            cacheOptions.apply(to: &settings)
            let engine = LinkPeekEngine(settings: settings)
            defer { engine.shutdown() }
            var urls: [String] = []
            while let line = readLine(strippingNewline: true) { if !line.isEmpty { urls.append(line) } }
            // The first lookup opens the database: not part of any one lookup's time.
            _ = await engine.cachedOutcome(url: urls.first ?? "http://x/", acceptLanguage: nil)
            let clock = ContinuousClock()
            var micros: [Double] = []
            micros.reserveCapacity(urls.count)
            var hits = 0
            let started = clock.now
            for url in urls {
                let before = clock.now
                if await engine.cachedOutcome(url: url, acceptLanguage: nil) != nil { hits += 1 }
                let elapsed = clock.now - before
                micros.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
            }
            let total = clock.now - started
            let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
            micros.sort()
            func percentile(_ p: Double) -> Double {
                micros.isEmpty ? 0 : micros[min(micros.count - 1, Int(Double(micros.count) * p))]
            }
            let report: [String: Double] = [
                "count": Double(urls.count), "hits": Double(hits), "p50_us": percentile(0.5),
                "p99_us": percentile(0.99), "per_second": seconds > 0 ? Double(urls.count) / seconds : 0,
            ]
            StandardIO.write(try CommandOutput.json(report) + "\n", to: STDOUT_FILENO)
        }
    }
}
