import Testing
import TextTrimming

/// `containsIgnoringASCIICase`, the byte search for header values.
@Suite struct ASCIISearchTests {
    @Test func findsTheWordInAnyASCIICase() {
        #expect("text/html; charset=UTF-16LE".containsIgnoringASCIICase("utf-16"))
        #expect("Keep-Alive, Upgrade".containsIgnoringASCIICase("keep-alive"))
        #expect("close".containsIgnoringASCIICase("close"))
        #expect("xCLOSEx"[...].containsIgnoringASCIICase("close"))
        #expect("anything".containsIgnoringASCIICase(""))
    }

    @Test func missesWhatIsNotThere() {
        #expect(!"text/html; charset=utf-8".containsIgnoringASCIICase("utf-16"))
        #expect(!"clos".containsIgnoringASCIICase("close"))
        #expect(!"".containsIgnoringASCIICase("close"))
        // Only ASCII letters fold: the Kelvin sign is no "k", nor "É" an "é".
        #expect(!"\u{212A}eep-alive".containsIgnoringASCIICase("keep-alive"))
        #expect(!"caf\u{C9}".containsIgnoringASCIICase("café"))
    }
}
