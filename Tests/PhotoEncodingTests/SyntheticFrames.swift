// SyntheticFrames: solid-color test frames and the color math to check them.
/// Solid-color frames with padded strides, and the color math to check decoded pixels.

@testable import PhotoEncoding

enum SyntheticFrames {
    /// A solid I420 frame whose rows are `padding` bytes longer than their payload.
    static func yuv420(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8, padding: Int = 16) -> PixelFrame {
        let chromaWidth = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        return PixelFrame(
            width: width, height: height, format: .yuv420,
            planes: [
                plane(rowBytes: width, rows: height, stride: width + padding, value: y),
                plane(rowBytes: chromaWidth, rows: chromaHeight, stride: chromaWidth + padding, value: u),
                plane(rowBytes: chromaWidth, rows: chromaHeight, stride: chromaWidth + padding, value: v),
            ])
    }

    /// A solid NV12 frame with padded strides.
    static func nv12(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8, padding: Int = 16) -> PixelFrame {
        let pairs = (width + 1) / 2
        let chromaHeight = (height + 1) / 2
        var uv = plane(rowBytes: pairs * 2, rows: chromaHeight, stride: pairs * 2 + padding, value: 0)
        for row in 0..<chromaHeight {
            for pair in 0..<pairs {
                uv.bytes[row * uv.stride + pair * 2] = u
                uv.bytes[row * uv.stride + pair * 2 + 1] = v
            }
        }
        return PixelFrame(
            width: width, height: height, format: .nv12,
            planes: [plane(rowBytes: width, rows: height, stride: width + padding, value: y), uv])
    }

    /// A YUYV frame (packed 4:2:2: Y0 U Y1 V per pair of pixels) whose luma is `y(x)` per column, with one U and V,
    /// rows padded with 0xEE.
    static func yuyv(width: Int, height: Int, u: UInt8, v: UInt8, padding: Int = 12, y: (Int) -> UInt8) -> PixelFrame {
        let pairs = (width + 1) / 2
        let stride = pairs * 4 + padding
        var bytes = [UInt8](repeating: 0xEE, count: stride * height)
        for row in 0..<height {
            for pair in 0..<pairs {
                let at = row * stride + pair * 4
                bytes[at] = y(pair * 2)
                bytes[at + 1] = u
                bytes[at + 2] = y(min(pair * 2 + 1, width - 1))
                bytes[at + 3] = v
            }
        }
        return PixelFrame(
            width: width, height: height, format: .yuyv, planes: [PixelPlane(bytes: bytes, stride: stride)])
    }

    /// An RGB24 frame colored per column by `color(x)`, with padded stride.
    static func rgb(width: Int, height: Int, padding: Int = 7, color: (Int) -> (UInt8, UInt8, UInt8)) -> PixelFrame {
        let stride = width * 3 + padding
        var bytes = [UInt8](repeating: 0xAA, count: stride * height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x)
                bytes[y * stride + x * 3] = r
                bytes[y * stride + x * 3 + 1] = g
                bytes[y * stride + x * 3 + 2] = b
            }
        }
        return PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: stride)])
    }

    /// JFIF (full-range BT.601) YCbCr to RGB, the conversion libjpeg applies when decoding.
    /// What limited-range YUV (a webcam's YUYV: luma 16–235, chroma 16–240) should decode to.
    static func rgb(limitedY y: UInt8, u: UInt8, v: UInt8) -> (Int, Int, Int) {
        func clamped(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }
        let chroma = { (c: UInt8) in clamped((Double(c) - 128) * 255 / 224 + 128) }
        return rgb(y: clamped((Double(y) - 16) * 255 / 219), u: chroma(u), v: chroma(v))
    }

    static func rgb(y: UInt8, u: UInt8, v: UInt8) -> (Int, Int, Int) {
        let (y, cb, cr) = (Double(y), Double(u) - 128, Double(v) - 128)
        func clamp(_ value: Double) -> Int { Int(min(255, max(0, value.rounded()))) }
        return (clamp(y + 1.402 * cr), clamp(y - 0.344136 * cb - 0.714136 * cr), clamp(y + 1.772 * cb))
    }

    /// The decoded RGB24 pixel at `x`,`y`.
    static func pixel(_ frame: PixelFrame, x: Int, y: Int) -> (Int, Int, Int) {
        let offset = y * frame.planes[0].stride + x * 3
        let bytes = frame.planes[0].bytes
        return (Int(bytes[offset]), Int(bytes[offset + 1]), Int(bytes[offset + 2]))
    }

    /// True when every channel is within `tolerance`.
    static func close(_ a: (Int, Int, Int), _ b: (Int, Int, Int), tolerance: Int = 6) -> Bool {
        abs(a.0 - b.0) <= tolerance && abs(a.1 - b.1) <= tolerance && abs(a.2 - b.2) <= tolerance
    }

    private static func plane(rowBytes: Int, rows: Int, stride: Int, value: UInt8) -> PixelPlane {
        var bytes = [UInt8](repeating: 0xEE, count: stride * rows)
        for row in 0..<rows {
            for column in 0..<rowBytes { bytes[row * stride + column] = value }
        }
        return PixelPlane(bytes: bytes, stride: stride)
    }
}
