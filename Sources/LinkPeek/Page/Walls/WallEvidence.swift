#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the bytes of a page show of a wall, counted on raw bytes as they
/// arrive: forms and password fields, and on an error page also captcha
/// markers and the words of bot-check pages. The markers are ASCII, so the
/// count holds in any ASCII-compatible encoding, before decoding.
///
/// Only the first `maximumBytes` are looked at: a wall is a small page.
/// `PageConsumer` feeds it only what can matter: an error page that may be
/// a bot check (`.everything`), and the body of a 2xx page whose head
/// declares no preview of its own (`.forms`); most pages are never scanned.
///
/// - Important: fed on the curl thread only (by `PageConsumer`).
public struct WallEvidence: Sendable, Equatable {
    /// What is counted.
    public enum Markers: Sendable, Equatable {
        /// Forms and password fields (a 2xx page: consent and login walls).
        case forms
        /// Those, captcha markers and bot-check words (an error page: challenges).
        case everything
    }

    public var markers: Markers
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
    /// The last bytes of the previous chunk, case folded, so a marker split across chunks is found.
    private var carry: [UInt8] = []

    public init(markers: Markers = .everything) {
        self.markers = markers
    }

    public static let maximumBytes = 128 * 1024

    /// True once the budget is spent.
    public var isFull: Bool { bytesSeen >= Self.maximumBytes }

    static let formMarker = Array("<form".utf8)
    static let passwordValue = Array("password".utf8)
    static let typeName = Array("type".utf8)
    static let captchaMarkers = ["captcha", "challenge-form"].map { Array($0.utf8) }
    static let challengePhrases = [
        "just a moment", "attention required", "verify you are human", "checking your browser",
        "checking if the site connection is secure", "are you a robot", "not a robot",
    ].map { Array($0.utf8) }
    /// Bytes kept from one chunk for the next: enough for the longest marker
    /// (`type="password"` plus the byte after `<form`).
    static let carryBytes = ((captchaMarkers + challengePhrases).map(\.count) + [typeName.count + 2 + passwordValue.count, formMarker.count + 1]).max() ?? 0

    /// Counts the markers in `chunk` (up to the budget).
    public mutating func scan(_ chunk: some Collection<UInt8>) {
        guard !isFull else { return }
        let taken = chunk.prefix(Self.maximumBytes - bytesSeen)
        bytesSeen += taken.count
        var window = carry
        window.append(contentsOf: taken)
        let fresh = carry.count
        var (forms, passwordFields, captcha, challengePhrase) = (0, 0, self.captcha, self.challengePhrase)
        // Statics read once here (each read of a global is a `swift_once` check).
        let (form, type, password) = (Self.formMarker, Self.typeName, Self.passwordValue)
        let everything = markers == .everything
        window.withUnsafeMutableBufferPointer { window in
            // ASCII case folded (a loop the compiler vectorises): the markers are lowercase.
            for index in fresh..<window.count where window[index] &- 0x41 < 26 { window[index] |= 0x20 }
            let bytes = UnsafeBufferPointer(window)
            // Each marker is searched with `memmem` (vectorised in the C library):
            // a byte-by-byte loop paid a mispredicted branch at every `<`.
            Self.occurrences(of: form, in: bytes) { index in
                // `<form` counts with the byte after it (`<formula>` is no form), so it is
                // judged once that byte has arrived, in whichever chunk that is.
                let after = index + form.count
                if after < bytes.count, after >= fresh, !Self.isNameByte(bytes[after]) { forms += 1 }
                return true
            }
            Self.occurrences(of: password, in: bytes) { index in
                guard index + password.count > fresh else { return true }
                var equals = index - 1
                if equals >= 0, bytes[equals] == UInt8(ascii: "\"") || bytes[equals] == UInt8(ascii: "'") { equals -= 1 }
                if equals >= type.count, bytes[equals] == UInt8(ascii: "="),
                    Self.matches(type, bytes, at: equals - type.count, fresh: 0)
                {
                    passwordFields += 1
                }
                return true
            }
            guard everything else { return }
            for marker in Self.captchaMarkers where !captcha {
                Self.occurrences(of: marker, in: bytes) { index in
                    captcha = index + marker.count > fresh
                    return !captcha
                }
            }
            for phrase in Self.challengePhrases where !challengePhrase {
                Self.occurrences(of: phrase, in: bytes) { index in
                    challengePhrase = index + phrase.count > fresh
                    return !challengePhrase
                }
            }
        }
        self.forms += forms
        self.passwordFields += passwordFields
        self.captcha = captcha
        self.challengePhrase = challengePhrase
        carry = Array(window.suffix(Self.carryBytes - 1))
    }

    /// Calls `found` with the index of each occurrence of `needle` in `bytes`, while it returns true.
    ///
    /// Candidates come from `memchr` (vectorised in the C library) for the
    /// needle's rarest letter, then the whole needle is compared: a
    /// byte-by-byte loop paid a mispredicted branch at every `<` of a page.
    private static func occurrences(
        of needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, _ found: (Int) -> Bool
    ) {
        guard let base = bytes.baseAddress, !needle.isEmpty else { return }
        let anchor = rarestOffset(needle)
        let anchorByte = Int32(needle[anchor])
        var start = anchor
        while start < bytes.count, let hit = memchr(base + start, anchorByte, bytes.count - start) {
            let position = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            let index = position - anchor
            if index + needle.count <= bytes.count, matches(needle, bytes, at: index, fresh: 0), !found(index) { return }
            start = position + 1
        }
    }

    /// Letters from the rarest in English text and markup to the most common (`p` is common in markup: `<p>`, `px`, `http`).
    private static let letterRarity = Array("zqxjkvbygfwmpucldrhsnioate".utf8)

    /// The offset of the needle's rarest byte (a letter, by `letterRarity`; anything else counts as common).
    static func rarestOffset(_ needle: [UInt8]) -> Int {
        var best = 0, bestRank = Int.max
        for (offset, byte) in needle.enumerated() {
            let rank = letterRarity.firstIndex(of: byte) ?? letterRarity.count
            if rank < bestRank { (best, bestRank) = (offset, rank) }
        }
        return best
    }

    /// Whether `marker` sits at `index` of `bytes` and ends in the new bytes (past `fresh`).
    @inline(__always)
    private static func matches(_ marker: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, fresh: Int) -> Bool {
        guard index + marker.count <= bytes.count, index + marker.count > fresh, bytes[index] == marker[0] else {
            return false
        }
        for offset in 1..<marker.count where bytes[index + offset] != marker[offset] { return false }
        return true
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-")
    }
}
