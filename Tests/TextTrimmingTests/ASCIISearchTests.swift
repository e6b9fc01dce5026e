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

/// `ASCIIByte`, the one ASCII case fold on bytes (tag names, markers, header tokens).
@Suite struct ASCIIByteTests {
    @Test func onlyCapitalLettersFold() {
        for byte in UInt8.min...UInt8.max {
            let expected = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            #expect(ASCIIByte.lowercased(byte) == expected, "byte \(byte)")
            #expect(ASCIIByte.isUppercase(byte) == (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte), "byte \(byte)")
            let letter = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            #expect(ASCIIByte.isLetter(byte) == letter, "byte \(byte)")
        }
    }

    @Test func matchesAtAnIndexInAnyCase() {
        let bytes = Array("<HEAD>".utf8)
        #expect(ASCIIByte.matches("head".utf8, in: bytes, at: 1))
        #expect(!ASCIIByte.matches("head>x".utf8, in: bytes, at: 1), "past the end")
        #expect(!ASCIIByte.matches("head".utf8, in: bytes, at: 0))
        #expect(ASCIIByte.matches("".utf8, in: bytes, at: 6))
        // A slice keeps its own indices.
        let slice = bytes[2...]
        #expect(ASCIIByte.matches("ead".utf8, in: slice, at: 2))
    }

    @Test func findsTheFirstPlaceFromAStart() {
        let bytes = Array("a-->b--> c".utf8)
        #expect(ASCIIByte.firstIndex(of: Array("-->".utf8), in: bytes, from: 0) == 1)
        #expect(ASCIIByte.firstIndex(of: Array("-->".utf8), in: bytes, from: 2) == 5)
        #expect(ASCIIByte.firstIndex(of: Array("-->".utf8), in: bytes, from: 6) == nil)
        #expect(ASCIIByte.firstIndex(of: Array("B".utf8.map(ASCIIByte.lowercased)), in: Array("aB".utf8), from: 0) == 1)
        #expect(ASCIIByte.firstIndex(of: [UInt8](), in: bytes, from: 3) == 3)
        #expect(ASCIIByte.firstIndex(of: Array("toolong".utf8), in: Array("tool".utf8), from: 0) == nil)
    }
}
