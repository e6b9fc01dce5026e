// `cache-time`: a benchmark tool, not part of linkpeek's release binary.
// Reads URLs from stdin and looks each up as the daemon's `getCached` does,
// in this process, on a fresh engine (so the memory level starts cold);
// prints one JSON object with the count of hits and the latency percentiles
// in microseconds. `Benchmarks/bench_cache.py` runs it:
//
//     swift build -c release --product cache-time
//     .build/release/cache-time --cache-dir DIR < urls.txt

import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

func usage() -> Never {
    let text = Array("usage: cache-time --cache-dir DIR < urls\n".utf8)
    _ = text.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    exit(2)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, arguments[0] == "--cache-dir", !arguments[1].isEmpty else { usage() }
var settings = Settings()
settings.cacheDir = arguments[1]
let engine = LinkPeekEngine(settings: settings)
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
    micros.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12)
}
let total = clock.now - started
let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
engine.shutdown()
let sorted = micros.sorted()
func percentile(_ p: Double, of sorted: [Double]) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
let perSecond = seconds > 0 ? Double(urls.count) / seconds : 0
print("{\"count\": \(urls.count), \"hits\": \(hits), \"p50_us\": \(percentile(0.5, of: sorted)), "
    + "\"p99_us\": \(percentile(0.99, of: sorted)), \"per_second\": \(perSecond)}")
