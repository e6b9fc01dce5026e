import Testing
@testable import Rules

/// The byte test for the canonical ISO 8601 form (`CanonicalISODate`)
/// passes only values that the date rules (`isoDateByForms`) give back
/// unchanged, at every edge of every field.
@Suite struct CanonicalISODateTests {
    static let clocks = ["", "T14:58:00", "T00:00:60", "T23:59:59.5", "T14:58", "t14:58:00", "T14:58:00.", "T14:58:00 pm"]
    static let zones = ["", "Z", "z", "+00:00", "-00:00", "+05:30", "-07:00", "+14:59", "+15:00", "-07:60", "+0700", "+07", "-7:00", "Zz"]

    @Test func datesAtTheirEdges() {
        var passed = 0
        for year in ["0999", "1000", "2016", "9999", "20a6"] {
            for month in ["00", "01", "12", "13", "1"] {
                for day in ["00", "01", "31", "32"] {
                    for clock in ["", "T14:58:00Z"] {
                        let text = "\(year)-\(month)-\(day)\(clock)"
                        if CanonicalISODate.holds(text) {
                            passed += 1
                            #expect(MetadataRules.isoDateByForms(text) == text, "\(text)")
                        }
                    }
                }
            }
        }
        #expect(passed == 3 * 2 * 2 * 2)
    }

    @Test func clocksAndZonesAtTheirEdges() {
        var passed = 0
        for hour in ["00", "23", "24", "9"] {
            for minute in ["00", "59", "60"] {
                for second in ["00", "60", "61", "5x"] {
                    for fraction in ["", ".", ".1", ".123456"] {
                        for zone in Self.zones {
                            let text = "2016-05-03T\(hour):\(minute):\(second)\(fraction)\(zone)"
                            if CanonicalISODate.holds(text) {
                                passed += 1
                                #expect(MetadataRules.isoDateByForms(text) == text, "\(text)")
                            }
                        }
                    }
                }
            }
        }
        // 2 hours × 2 minutes × 2 seconds × 3 fractions × 7 zones.
        #expect(passed == 2 * 2 * 2 * 3 * 7)
    }

    @Test func otherFormsGoToTheRules() {
        for clock in Self.clocks {
            for zone in Self.zones {
                let text = "2016-05-03" + clock + zone
                if !CanonicalISODate.holds(text) { continue }
                #expect(MetadataRules.isoDateByForms(text) == text, "\(text)")
            }
        }
        for text in ["2016-05-03T14:58:00+0700", "2016-5-3", "2016-05-03t14:58:00", "2016-05-03T14:58", " 2016-05-03", "2016/05/03"] {
            #expect(!CanonicalISODate.holds(text), "\(text)")
            #expect(MetadataRules.isoDate(text) == MetadataRules.isoDateByForms(text))
        }
    }
}
