// TOMLDocumentTests: the TOML reader on good and hostile text.
import Testing

@testable import BoothConfig

/// The TOML reader on hostile text: it throws a syntax error, never traps or overflows the stack.
@Suite struct TOMLDocumentTests {
    /// Megabytes of `[` (a damaged or crafted config or state file) are refused with the line and the limit.
    @Test(arguments: [3 * 1024 * 1024, 33])
    func deeplyNestedArraysAreASyntaxError(depth: Int) {
        let text = "favourites = " + String(repeating: "[", count: depth) + "\n"
        do {
            _ = try TOMLDocument(parsing: "# booth\n" + text)
            Issue.record("expected a syntax error")
        } catch {
            #expect(error.line == 2)
            #expect(error.message.contains("nested deeper than 32"))
        }
    }

    /// Nesting up to the limit still parses.
    @Test func nestingUpToTheLimitParses() throws {
        let depth = 32
        let text = "a = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
        let document = try TOMLDocument(parsing: text)
        #expect(document.entries.count == 1)
    }
}
