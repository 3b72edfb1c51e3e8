// QRCodeTests: libqrencode's symbols as the card draws them.
import Testing

@testable import JoinCard

@Suite struct QRCodeTests {
    @Test func aShortTextIsAVersionOneSymbolWithItsFinderPatterns() throws {
        let symbol = try QRCode("http://booth.local/")
        #expect(symbol.size == 25 || symbol.size == 21)
        // Each finder pattern: a dark 7x7 ring around a light ring around a dark 3x3 centre.
        for (left, top) in [(0, 0), (symbol.size - 7, 0), (0, symbol.size - 7)] {
            #expect(symbol.isDark(column: left, row: top))
            #expect(symbol.isDark(column: left + 6, row: top + 6))
            #expect(!symbol.isDark(column: left + 1, row: top + 1))
            #expect(symbol.isDark(column: left + 3, row: top + 3))
        }
    }

    @Test func aLongerTextNeedsALargerSymbol() throws {
        let short = try QRCode("WIFI:T:WPA;S:a;P:12345678;;")
        let long = try QRCode(
            "WIFI:T:WPA;S:\(String(repeating: "n", count: 32));P:\(String(repeating: "p", count: 63));;")
        #expect(long.size > short.size)
    }

    @Test func anEmptyOrOversizedTextIsRefused() {
        #expect(throws: JoinCardError.self) { try QRCode("") }
        #expect(throws: JoinCardError.self) { try QRCode(String(repeating: "x", count: 1_001)) }
    }
}
