// TestPattern: color bars with a text stamp: the picture the simulated camera "captures".

/// Renders recognizable synthetic frames (for the simulated camera and tests).
public enum TestPattern {
    /// The eight 75% bars left to right: white, yellow, cyan, green, magenta, red, blue, black.
    public static let barColors: [(red: UInt8, green: UInt8, blue: UInt8)] = [
        (191, 191, 191), (191, 191, 0), (0, 191, 191), (0, 191, 0),
        (191, 0, 191), (191, 0, 0), (0, 0, 191), (0, 0, 0),
    ]

    /// A `width` x `height` RGB24 frame of vertical color bars with `text` in white on a black
    /// band across the middle, drawn in a 5x7 font scaled to fit (packed, stride = 3 x width).
    public static func render(width: Int, height: Int, text: String) -> PixelFrame {
        let width = max(width, 1)
        let height = max(height, 1)
        let stride = width * 3
        var bytes = [UInt8](repeating: 0, count: stride * height)
        var row = [UInt8](repeating: 0, count: stride)
        for x in 0..<width {
            let color = barColors[x * barColors.count / width]
            row[x * 3] = color.red
            row[x * 3 + 1] = color.green
            row[x * 3 + 2] = color.blue
        }
        for y in 0..<height {
            bytes.replaceSubrange(y * stride..<(y + 1) * stride, with: row)
        }
        stamp(text, into: &bytes, width: width, height: height)
        return PixelFrame(
            width: width, height: height, format: .rgb24,
            planes: [PixelPlane(bytes: bytes, stride: stride)])
    }

    /// Draws `text` centered on a black band; glyph cells are 6x8 font pixels (1 px spacing).
    private static func stamp(_ text: String, into bytes: inout [UInt8], width: Int, height: Int) {
        let characters = Array(text)
        guard !characters.isEmpty else { return }
        let cellWidth = BitmapFont.glyphWidth + 1
        let cellHeight = BitmapFont.glyphHeight + 1
        let scale = min(width * 9 / 10 / (characters.count * cellWidth), height / 4 / cellHeight)
        guard scale >= 1 else { return }
        let textWidth = characters.count * cellWidth * scale
        let bandHeight = (BitmapFont.glyphHeight + 4) * scale
        let left = (width - textWidth) / 2
        let bandTop = (height - bandHeight) / 2
        for y in bandTop..<bandTop + bandHeight {
            for x in max(0, left - scale)..<min(width, left + textWidth + scale) {
                setPixel(&bytes, x: x, y: y, width: width, value: 0)
            }
        }
        let textTop = bandTop + 2 * scale
        for (index, character) in characters.enumerated() {
            let glyph = BitmapFont.rows(for: character)
            let glyphLeft = left + index * cellWidth * scale
            for (glyphRow, bits) in glyph.enumerated() {
                for column in 0..<BitmapFont.glyphWidth where bits & (0b10000 >> column) != 0 {
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            setPixel(
                                &bytes, x: glyphLeft + column * scale + dx, y: textTop + glyphRow * scale + dy,
                                width: width, value: 255)
                        }
                    }
                }
            }
        }
    }

    private static func setPixel(_ bytes: inout [UInt8], x: Int, y: Int, width: Int, value: UInt8) {
        let offset = (y * width + x) * 3
        bytes[offset] = value
        bytes[offset + 1] = value
        bytes[offset + 2] = value
    }
}
