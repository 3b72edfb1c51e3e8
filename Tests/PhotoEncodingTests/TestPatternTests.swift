// TestPatternTests: the simulator's test pattern frames.
import Testing

@testable import PhotoEncoding

@Suite struct TestPatternTests {
    @Test func barsAndTextAreDrawn() throws {
        let frame = TestPattern.render(width: 800, height: 600, text: "2026-11-22 14:03:07.123")
        #expect(frame.width == 800 && frame.height == 600 && frame.format == .rgb24)
        #expect(frame.planes[0].bytes.count == 800 * 600 * 3)
        #expect(SyntheticFrames.pixel(frame, x: 10, y: 10) == (191, 191, 191))
        #expect(SyntheticFrames.pixel(frame, x: 790, y: 10) == (0, 0, 0))
        #expect(SyntheticFrames.pixel(frame, x: 150, y: 10) == (191, 191, 0))
        // The middle band holds black background and white glyph pixels.
        let middle = (0..<800).map { SyntheticFrames.pixel(frame, x: $0, y: 300) }
        #expect(middle.contains { $0 == (255, 255, 255) })
        #expect(middle.contains { $0 == (0, 0, 0) })
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame))
        #expect(decoded.width == 800)
    }

    @Test func tinyFramesAndUnknownCharactersDoNotTrap() {
        #expect(TestPattern.render(width: 1, height: 1, text: "long text that cannot fit").width == 1)
        #expect(TestPattern.render(width: 0, height: -3, text: "").height == 1)
        #expect(BitmapFont.rows(for: "é") == BitmapFont.rows(for: "?"))
        #expect(BitmapFont.rows(for: "a") == BitmapFont.rows(for: "A"))
    }
}
