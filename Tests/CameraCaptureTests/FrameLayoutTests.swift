// FrameLayoutTests: the buffers a Pi camera or a USB webcam delivers (YUV420, NV12, YUYV, MJPEG; padded strides, odd sizes,
// one buffer or one per plane) laid out by the shim's own code and encoded, which vimc (RGB only) never does.
import CameraCapture
import PhotoEncoding
import Testing

@Suite struct FrameLayoutTests {
    /// A reddish color in YUV and, decoded, in RGB (JFIF's full-range conversion).
    static let yuv = (y: UInt8(81), u: UInt8(90), v: UInt8(240))
    static let rgb = (r: 238, g: 14, b: 14)
    /// The same YUV as a webcam's YUYV, limited range, decoded once stretched to full range.
    static let limitedRGB = (r: 254, g: 0, b: 0)

    /// One plane: `rows` rows of `rowBytes` bytes of `value` (`pattern` cycles for NV12's U, V pairs),
    /// each padded to `stride` with 0xEE, which must never reach the photo.
    static func plane(rowBytes: Int, rows: Int, stride: Int, pattern: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for _ in 0..<rows {
            bytes += (0..<rowBytes).map { pattern[$0 % pattern.count] }
            bytes += [UInt8](repeating: 0xEE, count: stride - rowBytes)
        }
        return bytes
    }

    /// Encodes the frame the shim lays out from `buffer` and checks its corners and middle decode red (`rgb`).
    static func encodeAndCheck(
        _ format: PixelFormat, width: Int, height: Int, stride: Int, buffers: [[UInt8]], offsets: [Int]? = nil,
        rgb: (r: Int, g: Int, b: Int) = rgb
    ) throws {
        // Each buffer in memory of its own, as dmabufs are.
        let memory = buffers.map { bytes in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 64)
            copy.copyBytes(from: bytes)
            return copy
        }
        defer { memory.forEach { $0.deallocate() } }
        let planes = try FrameLayout.planes(
            format: format, width: width, height: height, stride: stride,
            buffers: memory.enumerated().map { index, buffer in
                let offset = offsets?[index] ?? 0
                return FrameLayout.BufferPlane(
                    base: UnsafeRawPointer(buffer.baseAddress!), offset: offset, length: buffer.count - offset)
            })
        let jpeg = try JPEGEncoder.encode(
            BorrowedPixelFrame(width: width, height: height, format: format, planes: planes),
            options: JPEGOptions(quality: 95))
        let decoded = try JPEGInspector.decode(jpeg)
        #expect(decoded.width == width && decoded.height == height)
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2)] {
            let i = y * decoded.planes[0].stride + x * 3
            let pixel = (
                Int(decoded.planes[0].bytes[i]), Int(decoded.planes[0].bytes[i + 1]),
                Int(decoded.planes[0].bytes[i + 2])
            )
            #expect(
                abs(pixel.0 - rgb.r) <= 10 && abs(pixel.1 - rgb.g) <= 10 && abs(pixel.2 - rgb.b) <= 10,
                "\(format) \(width)x\(height) pixel \(x),\(y): \(pixel)")
        }
    }

    /// YUV420 in one buffer, Y then U then V back to back at half the stride: how a Pi's camera module
    /// delivers it (rows padded to 64 bytes here), odd sizes included.
    @Test(arguments: [(640, 480, 640), (641, 479, 704), (33, 31, 64), (1, 1, 64)])
    func yuv420InOneBuffer(width: Int, height: Int, stride: Int) throws {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let buffer =
            Self.plane(rowBytes: width, rows: height, stride: stride, pattern: [Self.yuv.y])
            + Self.plane(rowBytes: cw, rows: ch, stride: stride / 2, pattern: [Self.yuv.u])
            + Self.plane(rowBytes: cw, rows: ch, stride: stride / 2, pattern: [Self.yuv.v])
        try Self.encodeAndCheck(.yuv420, width: width, height: height, stride: stride, buffers: [buffer])
    }

    /// YUV420 with one buffer per plane, each starting at an offset of its own.
    @Test func yuv420InThreeBuffersAtOffsets() throws {
        let (width, height, stride) = (99, 65, 128)
        let cw = 50, ch = 33
        let lead: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        let buffers = [
            lead + Self.plane(rowBytes: width, rows: height, stride: stride, pattern: [Self.yuv.y]),
            lead + Self.plane(rowBytes: cw, rows: ch, stride: stride / 2, pattern: [Self.yuv.u]),
            lead + Self.plane(rowBytes: cw, rows: ch, stride: stride / 2, pattern: [Self.yuv.v]),
        ]
        try Self.encodeAndCheck(
            .yuv420, width: width, height: height, stride: stride, buffers: buffers, offsets: [8, 8, 8])
    }

    /// NV12 (Y, then interleaved U and V at the full stride), in one buffer, odd sizes included.
    @Test(arguments: [(640, 480, 640), (641, 479, 704), (17, 9, 32)])
    func nv12InOneBuffer(width: Int, height: Int, stride: Int) throws {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let buffer =
            Self.plane(rowBytes: width, rows: height, stride: stride, pattern: [Self.yuv.y])
            + Self.plane(rowBytes: cw * 2, rows: ch, stride: stride, pattern: [Self.yuv.u, Self.yuv.v])
        try Self.encodeAndCheck(.nv12, width: width, height: height, stride: stride, buffers: [buffer])
    }

    /// YUYV (packed 4:2:2, Y0 U Y1 V per pair of pixels), a USB webcam's through libcamera's uvcvideo pipeline: one
    /// plane of ceil(width / 2) pairs a row, odd sizes and padded rows included.
    @Test(arguments: [(640, 480, 1280), (641, 479, 1344), (17, 9, 64), (1, 1, 4)])
    func yuyvInOneBuffer(width: Int, height: Int, stride: Int) throws {
        let pairs = (width + 1) / 2
        let buffer = Self.plane(
            rowBytes: pairs * 4, rows: height, stride: stride,
            pattern: [Self.yuv.y, Self.yuv.u, Self.yuv.y, Self.yuv.v])
        try Self.encodeAndCheck(
            .yuyv, width: width, height: height, stride: stride, buffers: [buffer], rgb: Self.limitedRGB)
    }

    /// A webcam's MJPEG frame as it streams: a JPEG without Huffman tables (MJPEG leaves them out; the decoder
    /// supplies the standard ones) at the start of its buffer, the last frame's tail after it.
    @Test(arguments: [(640, 480), (33, 31), (1, 1)])
    func mjpegInOneBuffer(width: Int, height: Int) throws {
        let (y, u, v) = Self.yuv
        let frame = PixelFrame(
            width: width, height: height, format: .yuv420,
            planes: [
                PixelPlane(bytes: [UInt8](repeating: y, count: width * height), stride: width),
                PixelPlane(
                    bytes: [UInt8](repeating: u, count: (width + 1) / 2 * ((height + 1) / 2)), stride: (width + 1) / 2),
                PixelPlane(
                    bytes: [UInt8](repeating: v, count: (width + 1) / 2 * ((height + 1) / 2)), stride: (width + 1) / 2),
            ])
        let jpeg = try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 95))
        let webcam = Self.withoutHuffmanTables(jpeg)
        #expect(webcam.count < jpeg.count, "the test's JPEG had Huffman tables to leave out")
        try Self.encodeAndCheck(
            .mjpeg, width: width, height: height, stride: 0,
            buffers: [webcam + [UInt8](repeating: 0xEE, count: 4096)])
    }

    /// `jpeg` without its DHT segments, as a webcam's MJPEG frame comes.
    static func withoutHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var out = Array(jpeg.prefix(2))
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA {
            let length = 2 + Int(jpeg[at + 2]) << 8 + Int(jpeg[at + 3])
            if jpeg[at + 1] != 0xC4 { out += jpeg[at..<at + length] }
            at += length
        }
        return out + jpeg[at...]
    }

    /// A buffer one byte short, a stride narrower than a row, or a plane count the format does not have
    /// is refused with the reason, never read past its end.
    @Test func aBufferThatDoesNotFitItsFormatIsRefused() {
        var short = [UInt8](repeating: 0, count: 64 * 32 + 32 * 16 * 2 - 1)
        short.withUnsafeMutableBytes { bytes in
            let base = bytes.baseAddress!
            #expect(throws: FrameLayout.Problem.self) {
                try FrameLayout.planes(
                    format: .yuv420, width: 64, height: 32, stride: 64,
                    buffers: [.init(base: base, offset: 0, length: bytes.count)])
            }
            #expect(throws: FrameLayout.Problem.self) {
                try FrameLayout.planes(
                    format: .rgb24, width: 64, height: 2, stride: 64,
                    buffers: [.init(base: base, offset: 0, length: bytes.count)])
            }
            #expect(throws: FrameLayout.Problem.self) {
                try FrameLayout.planes(
                    format: .mjpeg, width: 8, height: 8, stride: 0, buffers: [.init(base: base, offset: 0, length: 1)])
            }
            #expect(throws: FrameLayout.Problem.self) {
                try FrameLayout.planes(
                    format: .mjpeg, width: 8, height: 8, stride: 0,
                    buffers: Array(repeating: .init(base: base, offset: 0, length: 64), count: 2))
            }
            do {
                _ = try FrameLayout.planes(
                    format: .nv12, width: 8, height: 8, stride: 8,
                    buffers: Array(repeating: .init(base: base, offset: 0, length: 64), count: 3))
                Issue.record("three planes for NV12 were taken")
            } catch {
                #expect("\(error)" == "camera buffer has a number of planes its pixel format does not have")
            }
        }
    }
}
