/// Host names for cache keys: lower-cased, each non-ASCII label as its
/// IDNA A-label (`xn--` + RFC 3492 punycode), so `bücher.de` and
/// `xn--bcher-kva.de` are one key. (Lower-casing stands in for the full
/// IDNA mapping table, which covers far rarer cases.)
enum Punycode {
    static func asciiHost(_ host: String) -> String? {
        let lowered = host.lowercased()
        if lowered.allSatisfy(\.isASCII) { return lowered }
        var labels: [String] = []
        for label in lowered.split(separator: ".", omittingEmptySubsequences: false) {
            if label.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = encode(Array(label.unicodeScalars)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700

    /// RFC 3492 §6.3 encoding; nil on overflow (a label no DNS name can hold).
    static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output: [UInt8] = input.filter(\.isASCII).map { UInt8($0.value) }
        let basicCount = output.count
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = 0x80, delta = 0, bias = 72, handled = basicCount
        while handled < input.count {
            guard let next = input.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
            let (step, overflow) = (next - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow, delta <= Int(Int32.max) - step else { return nil }
            delta += step
            n = next
            for scalar in input.map({ Int($0.value) }) {
                if scalar < n { delta += 1 }
                guard scalar == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, handled + 1, handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func digit(_ value: Int) -> UInt8 {
        UInt8(value < 26 ? 97 + value : 22 + value)
    }

    private static func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
