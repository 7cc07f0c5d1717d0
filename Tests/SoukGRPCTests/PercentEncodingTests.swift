import Testing

@testable import SoukGRPC

@Suite struct PercentEncodingTests {
    @Test func printableASCIIIsLeftAlone() {
        let message = "Invalid argument: field 'name' (max 10) ~ ok!"
        #expect(GRPCMessageEncoding.encode(message) == message)
    }

    @Test func encodesPercentControlAndNonASCIIBytes() {
        #expect(GRPCMessageEncoding.encode("100%") == "100%25")
        #expect(GRPCMessageEncoding.encode("a\nb\tc") == "a%0Ab%09c")
        #expect(GRPCMessageEncoding.encode("\u{7F}") == "%7F")
        #expect(GRPCMessageEncoding.encode("café") == "caf%C3%A9")
        #expect(GRPCMessageEncoding.encode("😈") == "%F0%9F%98%88")
    }

    @Test func escapesSpacesOnlyAtTheEnds() {
        #expect(GRPCMessageEncoding.encode(" padded ") == "%20padded%20")
        #expect(GRPCMessageEncoding.encode("inner space") == "inner space")
        #expect(GRPCMessageEncoding.encode(" ") == "%20")
    }

    @Test(arguments: ["", " ", "plain", " both ends ", "100% sure", "línea\r\nnueva", "日本語", "%%41", "tab\tend", "~ \u{1F}"])
    func roundTrips(message: String) {
        #expect(GRPCMessageEncoding.decode(GRPCMessageEncoding.encode(message)) == message)
    }

    @Test func decodesLowerAndUpperCaseHex() {
        #expect(GRPCMessageEncoding.decode("caf%c3%a9") == "café")
        #expect(GRPCMessageEncoding.decode("caf%C3%A9") == "café")
    }

    @Test func keepsBrokenEscapesAsTheyAre() {
        #expect(GRPCMessageEncoding.decode("50%") == "50%")
        #expect(GRPCMessageEncoding.decode("%4") == "%4")
        #expect(GRPCMessageEncoding.decode("%zz ok") == "%zz ok")
        #expect(GRPCMessageEncoding.decode("%41%") == "A%")
    }

    @Test func invalidUTF8BecomesTheReplacementCharacter() {
        #expect(GRPCMessageEncoding.decode("a%FFb") == "a\u{FFFD}b")
    }
}
