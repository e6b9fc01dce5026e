/// How many fallbacks of each kind were kept: a counter per kind, without
/// hashing (this is asked for every body element).
struct FallbackCounts {
    private var counts = [Int](repeating: 0, count: ElementCollector.FallbackKind.allCases.count)

    /// Every kind's raw value is its place in `allCases` (0, 1, 2, … in order).
    subscript(kind: ElementCollector.FallbackKind) -> Int {
        get { counts[kind.rawValue] }
        set { counts[kind.rawValue] = newValue }
    }
}
