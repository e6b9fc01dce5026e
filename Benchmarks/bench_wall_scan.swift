// The cost of looking for walls in a page's bytes (WallEvidence),
// side by side in one run with copying the same chunks (the least any pass
// over the bytes costs), on 50 generated pages of dense markup, 128 KiB each:
//
//   swiftc -O -wmo -parse-as-library -o /tmp/bench_wall_scan Sources/LinkPeek/Walls/WallEvidence.swift Benchmarks/bench_wall_scan.swift
//   /tmp/bench_wall_scan
//
// Prints medians of 15 rounds (the order of the three alternates each round).
import Foundation

func page(seed: UInt64) -> [UInt8] {
    var state = seed
    let words = ["<div class=\"post\">", "<p>", "text ", "of ", "the ", "article ", "</p>", "<a href=\"/x\">", "link</a>",
                 "<img src=\"/i.jpg\" width=\"10\">", "<script>var a = 1;</script>", "<input type=\"text\" name=q>", "\n"]
    var out: [UInt8] = []
    while out.count < 160 * 1024 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        out += Array(words[Int(state >> 33) % words.count].utf8)
    }
    return out
}

let pages = (0..<50).map { page(seed: UInt64($0) + 1) }
let chunk = 16 * 1024

func milliseconds(_ body: () -> Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let sink = body()
    precondition(sink >= 0)
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

func scan(_ markers: WallEvidence.Markers) -> Int {
    var total = 0
    for bytes in pages {
        var evidence = WallEvidence(markers: markers)
        var start = 0
        while start < bytes.count && !evidence.isFull {
            evidence.scan(bytes[start..<min(bytes.count, start + chunk)])
            start += chunk
        }
        total += evidence.forms + evidence.passwordFields
    }
    return total
}

func copy() -> Int {
    var total = 0
    for bytes in pages {
        var held: [UInt8] = []
        var start = 0
        while start < min(bytes.count, WallEvidence.maximumBytes) {
            held.append(contentsOf: bytes[start..<min(bytes.count, start + chunk)])
            start += chunk
        }
        total += held.count
    }
    return total
}

@main
enum BenchWallScan {
    static func main() {
        var times: [String: [Double]] = [:]
        let runs: [(String, () -> Int)] = [("forms", { scan(.forms) }), ("everything", { scan(.everything) }), ("copy", copy)]
        for round in 0..<15 {
            for offset in 0..<runs.count {
                let (name, body) = runs[(round + offset) % runs.count]
                times[name, default: []].append(milliseconds(body))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let copyMs = median(times["copy"] ?? [1])
        for name in ["forms", "everything", "copy"] {
            let ms = median(times[name] ?? [])
            print(String(format: "%-10@ %7.1f µs per 128 KiB page  (%.0fx the copy)", name as NSString, ms * 1000 / 50, ms / copyMs))
        }
    }
}
