import FoundationEssentials
import Testing

@testable import LinkPeek

/// `UTCTimestamp` writes what `Date.formatted(.iso8601)` writes, without
/// Foundation's calendar and time zone (which open ICU's data).
@Suite struct UTCTimestampTests {
    @Test func knownDates() {
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 1_795_887_688.999)) == "2026-11-28T17:41:28Z")
        #expect(UTCTimestamp.string(Date(timeIntervalSince1970: 253_402_300_799)) == "9999-12-31T23:59:59Z")
    }

    @Test func sameAsFoundationOnSpreadDates() {
        // A fixed linear congruential walk over 1970–9999, with fractions of a second.
        var state: UInt64 = 20_261_129
        var checked = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Double(state >> 11) / Double(1 << 53) * 253_402_300_800
            let date = Date(timeIntervalSince1970: seconds)
            #expect(UTCTimestamp.string(date) == date.formatted(.iso8601), "\(seconds)")
            checked += 1
        }
        // Every day boundary of 1999–2001 (leap and century rules) and the last second of each day.
        for day in 10_592..<11_689 {
            for offset in [0.0, 86_399.5] {
                let date = Date(timeIntervalSince1970: Double(day) * 86_400 + offset)
                #expect(UTCTimestamp.string(date) == date.formatted(.iso8601))
            }
        }
        #expect(checked == 20_000)
    }

    @Test func outsideTheRangeFallsBackToFoundation() {
        let before = Date(timeIntervalSince1970: -86_400.5)
        #expect(UTCTimestamp.string(before) == before.formatted(.iso8601))
    }
}
