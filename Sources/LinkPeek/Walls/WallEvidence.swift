/// What the first bytes of a page show of a wall, counted on raw bytes as
/// they arrive: forms, password fields, captcha markers and the phrases of
/// bot-check pages. The markers are ASCII, so the count holds in any
/// ASCII-compatible encoding, before decoding.
///
/// Only the first `maximumBytes` are looked at: a wall is a small page, and
/// a long article must not pay for the search past its start.
///
/// - Important: fed on the curl thread only (by `PageConsumer`).
public struct WallEvidence: Sendable, Equatable {
    /// `<form` start tags seen.
    public var forms = 0
    /// `type=password` inputs seen (quoted or not).
    public var passwordFields = 0
    /// A captcha widget or a challenge form (`captcha`, `challenge-form`).
    public var captcha = false
    /// A bot-check page's words ("Just a moment", "verify you are human", …).
    public var challengePhrase = false
    /// Bytes looked at so far.
    public private(set) var bytesSeen = 0
    /// The last bytes of the previous chunk, so a marker split across chunks is found.
    private var carry: [UInt8] = []

    public init() {}

    public static let maximumBytes = 128 * 1024

    /// True once the budget is spent.
    public var isFull: Bool { bytesSeen >= Self.maximumBytes }

    static let formMarker = Array("<form".utf8)
    static let passwordMarkers = ["type=\"password\"", "type='password'", "type=password"].map { Array($0.utf8) }
    static let captchaMarkers = ["captcha", "challenge-form"].map { Array($0.utf8) }
    static let challengePhrases = [
        "just a moment", "attention required", "verify you are human", "checking your browser",
        "checking if the site connection is secure", "are you a robot", "not a robot",
    ].map { Array($0.utf8) }
    /// The bytes a marker starts with, as a table by byte value.
    static let startsMarker: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for marker in passwordMarkers + captchaMarkers + challengePhrases + [formMarker] { table[Int(marker[0])] = true }
        return table
    }()
    /// The carry: the longest marker, `<form` with its lookahead byte included.
    static let longestMarker = (passwordMarkers + captchaMarkers + challengePhrases + [formMarker + [0]]).map(\.count).max() ?? 0

    /// Counts the markers in `chunk` (up to the budget).
    public mutating func scan(_ chunk: some Collection<UInt8>) {
        guard !isFull else { return }
        let taken = chunk.prefix(Self.maximumBytes - bytesSeen)
        bytesSeen += taken.count
        var window = carry
        window.reserveCapacity(carry.count + taken.count)
        // ASCII case folded: the markers are lowercase.
        for byte in taken { window.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        // A marker that ends inside the carried bytes was counted with the previous chunk.
        let fresh = carry.count
        var index = 0
        while index < window.count {
            // Most bytes start no marker: one table look-up passes them.
            guard Self.startsMarker[Int(window[index])] else {
                index += 1
                continue
            }
            switch window[index] {
            case UInt8(ascii: "<"):
                // `<form` counts with the byte after it (`<formula>` is no form), so it is
                // judged once that byte has arrived, in whichever chunk that is.
                let after = index + Self.formMarker.count
                if after < window.count, after + 1 > fresh, !Self.isNameByte(window[after]),
                    Self.matches(Self.formMarker, window, at: index, fresh: 0)
                {
                    forms += 1
                }
            case UInt8(ascii: "t"):
                if Self.passwordMarkers.contains(where: { Self.matches($0, window, at: index, fresh: fresh) }) {
                    passwordFields += 1
                }
            default:
                break
            }
            if !captcha, Self.captchaMarkers.contains(where: { Self.matches($0, window, at: index, fresh: fresh) }) {
                captcha = true
            }
            if !challengePhrase,
                Self.challengePhrases.contains(where: { Self.matches($0, window, at: index, fresh: fresh) })
            {
                challengePhrase = true
            }
            index += 1
        }
        carry = Array(window.suffix(Self.longestMarker - 1))
    }

    /// Whether `marker` sits at `index` of `window` and ends in the new bytes (past `fresh`).
    private static func matches(_ marker: [UInt8], _ window: [UInt8], at index: Int, fresh: Int) -> Bool {
        guard window[index] == marker[0], index + marker.count <= window.count, index + marker.count > fresh
        else { return false }
        for offset in 1..<marker.count where window[index + offset] != marker[offset] { return false }
        return true
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }
}
