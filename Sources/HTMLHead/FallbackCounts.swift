/// How many fallbacks of each kind were kept: a counter per kind, without
/// hashing (this is asked for every body element).
struct FallbackCounts {
    private static let kinds = ElementCollector.FallbackKind.allCases
    private var counts = [Int](repeating: 0, count: kinds.count)

    subscript(kind: ElementCollector.FallbackKind) -> Int {
        get { counts[Self.slot(kind)] }
        set { counts[Self.slot(kind)] = newValue }
    }

    /// The kind's place in `allCases` (every kind has one: the `?? 0` never applies).
    private static func slot(_ kind: ElementCollector.FallbackKind) -> Int {
        kinds.firstIndex(of: kind) ?? 0
    }
}
