import LinkPeekProtocol
import Testing

/// Tier 1: the one range check every client number goes through.
@Suite struct NumberRangeTests {
    @Test func valuesInsideTheRangePass() {
        #expect(ParamRanges.timeout.check(0.001, field: "timeout") == nil)
        #expect(ParamRanges.timeout.check(3600, field: "timeout") == nil)
        #expect(ParamRanges.maxConcurrency.check(1024, field: "m") == nil)
        #expect(ParamRanges.maxConcurrency.integer(64) == 64)
        #expect(ParamRanges.timeout.check(nil as Double?, field: "timeout") == nil)
    }

    @Test func everythingElseIsRefusedNamingTheFieldAndTheRange() {
        let hostile: [Double] = [0, -0.0, -1, 1e16, 1e19, 18446744073709551615, 1e308, .greatestFiniteMagnitude,
                                 .infinity, -.infinity, .nan, 3600.0000001]
        for value in hostile {
            #expect(ParamRanges.timeout.check(value, field: "timeout")
                == "timeout must be a number from 0.001 to 3600 (seconds)", "\(value)")
        }
        for value in [0.5, 1.5, 0, 1025, 9.223372036854775808e18, -9.3e18, .nan] {
            #expect(ParamRanges.maxConcurrency.check(value, field: "initializationOptions.maxConcurrency")
                == "initializationOptions.maxConcurrency must be an integer from 1 to 1024", "\(value)")
            #expect(ParamRanges.maxConcurrency.integer(value) == nil, "\(value)")
        }
    }
}
