// TerminalInputTests: the interactive simulator's status line fits the terminal's width, cut, never wrapped.
import Testing

@testable import BoothRuntime

@Suite struct TerminalInputTests {
    @Test func theStatusLineIsCutToTheTerminalsWidthLeavingTheLastColumnFree() {
        let line = String(repeating: "x", count: 130)
        let fitted = TerminalInput.fitted(line, columns: 120)
        #expect(fitted.count == 119)
        #expect(fitted.hasSuffix("…"))
        #expect(TerminalInput.fitted("short", columns: 120) == "short")
        #expect(TerminalInput.fitted(String(repeating: "y", count: 119), columns: 120).count == 119)
        #expect(
            TerminalInput.fitted(String(repeating: "y", count: 120), columns: 120) == String(repeating: "y", count: 118)
                + "…")
        #expect(TerminalInput.fitted(line, columns: 1) == "…")
    }
}
