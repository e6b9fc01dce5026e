#if canImport(Glibc)
import Glibc
#endif

/// SplitMix64: the one small seeded generator of the Swift tests, so a random
/// test's failure can be replayed exactly (its seed is printed, and
/// `LINKPEEK_SEED` runs it again with that seed).
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The seed a random test runs with: `LINKPEEK_SEED` when set (to replay
    /// a failure), else `fallback` (each test's own fixed seed, so CI runs
    /// are repeatable). Printed first: a crash prints no expectation message.
    /// How many rounds a randomised test runs: `fallback` (chosen so that
    /// CI time stays as it is), times `LINKPEEK_FUZZ_SCALE` when set (a
    /// positive integer, for a longer run by hand). A count, never a clock:
    /// a seed replays the same inputs on any machine, however fast.
    public static func rounds(default fallback: Int) -> Int {
        let scale = getenv("LINKPEEK_FUZZ_SCALE").flatMap { Int(String(cString: $0)) } ?? 1
        return fallback * max(scale, 1)
    }

    public static func seed(default fallback: UInt64, _ test: String = #function, file: String = #fileID) -> UInt64 {
        let seed = getenv("LINKPEEK_SEED").flatMap { UInt64(String(cString: $0)) } ?? fallback
        print("\(file) \(test): seed \(seed) (replay with LINKPEEK_SEED=\(seed))")
        return seed
    }
}
