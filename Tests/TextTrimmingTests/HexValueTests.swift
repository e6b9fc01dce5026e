import Testing
import TextTrimming

/// `ASCIIByte.hexValue` on every byte against the definition: the sixteen
/// digits in either case, nothing else.
@Suite struct HexValueTests {
    @Test func everyByteAgainstTheDefinition() {
        let digits = Array("0123456789abcdef".utf8)
        for value in 0...255 {
            let byte = UInt8(value)
            let expected = digits.firstIndex(of: ASCIIByte.lowercased(byte)).map { UInt8($0) }
            #expect(ASCIIByte.hexValue(byte) == expected, "byte \(value)")
        }
        #expect(ASCIIByte.hexValue(UInt8(ascii: "F")) == 15)
        #expect(ASCIIByte.hexValue(UInt8(ascii: "g")) == nil)
    }
}
