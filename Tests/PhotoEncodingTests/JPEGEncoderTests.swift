// JPEGEncoderTests: YUV and RGB frames through libjpeg-turbo, decoded back and compared.
import Testing

@testable import PhotoEncoding

/// A reddish YUV color and what libjpeg should decode it to.
private let red = (y: UInt8(81), u: UInt8(90), v: UInt8(240))

@Suite struct JPEGEncoderTests {
    @Test(arguments: [(64, 48), (641, 479), (17, 9), (1, 1), (2, 3)])
    func yuv420WithPaddedStridesDecodesToTheSameColor(width: Int, height: Int) throws {
        let frame = SyntheticFrames.yuv420(width: width, height: height, y: red.y, u: red.u, v: red.v, padding: 24)
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame))
        #expect(decoded.width == width && decoded.height == height)
        let expected = SyntheticFrames.rgb(y: red.y, u: red.u, v: red.v)
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2)] {
            #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: x, y: y), expected), "pixel \(x),\(y)")
        }
    }

    @Test(arguments: [(640, 480), (641, 479), (33, 31)])
    func nv12DecodesToTheSameColor(width: Int, height: Int) throws {
        let frame = SyntheticFrames.nv12(width: width, height: height, y: red.y, u: red.u, v: red.v)
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame))
        #expect(decoded.width == width && decoded.height == height)
        let expected = SyntheticFrames.rgb(y: red.y, u: red.u, v: red.v)
        #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: width - 1, y: height - 1), expected))
        #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: 0, y: 0), expected))
    }

    @Test(arguments: [(640, 480), (641, 479), (33, 31), (1, 1), (2, 3)])
    func yuyvDecodesToTheSameColor(width: Int, height: Int) throws {
        let frame = SyntheticFrames.yuyv(width: width, height: height, u: red.u, v: red.v) { _ in red.y }
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame))
        #expect(decoded.width == width && decoded.height == height)
        let expected = SyntheticFrames.rgb(limitedY: red.y, u: red.u, v: red.v)
        for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1), (width / 2, height / 2)] {
            #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: x, y: y), expected), "pixel \(x),\(y)")
        }
    }

    /// Each YUYV byte is read as what it is: the luma of each pixel of a pair (every column its own), then U and V.
    /// Columns alternate dark and light in 8-pixel stripes, cropped to 4:3 from an even offset.
    @Test func yuyvKeepsEachColumnsLumaAndItsChroma() throws {
        let (width, height) = (160, 90)
        let stripe = { (x: Int) -> UInt8 in (x / 8) % 2 == 0 ? 40 : 200 }
        let frame = SyntheticFrames.yuyv(width: width, height: height, u: red.u, v: red.v, y: stripe)
        let decoded = try JPEGInspector.decode(
            try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 100, crop: CropRatio(width: 4, height: 3))))
        #expect(decoded.width == 120 && decoded.height == 90)
        let left = (width - decoded.width) / 2
        for x in [3, 12, 20, 28, 60, 116] {
            let expected = SyntheticFrames.rgb(limitedY: stripe(left + x), u: red.u, v: red.v)
            #expect(
                SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: x, y: 45), expected, tolerance: 12),
                "column \(x): \(SyntheticFrames.pixel(decoded, x: x, y: 45)) for \(expected)")
        }
    }

    /// A webcam's YUYV is limited range: its black (luma 16) and white (235) are the photo's 0 and 255, grey stays
    /// grey, and its most saturated blue (Cb 240) is as blue as a JPEG holds, not a washed-out copy of each.
    @Test func yuyvIsStretchedFromLimitedRange() throws {
        let cases: [(y: UInt8, u: UInt8, v: UInt8, rgb: (Int, Int, Int))] = [
            (16, 128, 128, (0, 0, 0)), (235, 128, 128, (255, 255, 255)), (126, 128, 128, (128, 128, 128)),
            (41, 240, 110, SyntheticFrames.rgb(y: 29, u: 255, v: 107)),
        ]
        for c in cases {
            let frame = SyntheticFrames.yuyv(width: 32, height: 16, u: c.u, v: c.v) { _ in c.y }
            let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 100)))
            let got = SyntheticFrames.pixel(decoded, x: 16, y: 8)
            #expect(SyntheticFrames.close(got, c.rgb, tolerance: 3), "Y \(c.y) U \(c.u) V \(c.v): \(got)")
        }
    }

    @Test func rgb24WithPaddedStrideDecodesToTheSameColor() throws {
        let frame = SyntheticFrames.rgb(width: 99, height: 61) { _ in (30, 160, 220) }
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 95)))
        #expect(decoded.width == 99 && decoded.height == 61)
        #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: 98, y: 60), (30, 160, 220)))
    }

    /// A webcam's MJPEG frame: decoded, then cropped and encoded as any frame, each column where it was.
    @Test func mjpegIsDecodedThenCroppedAsAnyFrame() throws {
        let (width, height) = (160, 90)
        let stripe = { (x: Int) -> (UInt8, UInt8, UInt8) in (x / 8) % 2 == 0 ? (40, 40, 40) : (210, 210, 210) }
        let camera = try JPEGEncoder.encode(
            SyntheticFrames.rgb(width: width, height: height, color: stripe), options: JPEGOptions(quality: 100))
        let frame = PixelFrame(
            width: width, height: height, format: .mjpeg, planes: [PixelPlane(bytes: camera, stride: camera.count)])
        let decoded = try JPEGInspector.decode(
            try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 100, crop: CropRatio(width: 4, height: 3))))
        #expect(decoded.width == 120 && decoded.height == 90)
        let left = (width - decoded.width) / 2
        for x in [3, 12, 20, 28, 60, 116] {
            let (r, g, b) = stripe(left + x)
            #expect(
                SyntheticFrames.close(
                    SyntheticFrames.pixel(decoded, x: x, y: 45), (Int(r), Int(g), Int(b)), tolerance: 16),
                "column \(x): \(SyntheticFrames.pixel(decoded, x: x, y: 45))")
        }
    }

    /// A cut-off MJPEG frame (a webcam unplugged mid-frame) fails the photo with the reason: never kept with grey
    /// blocks. A frame of another size than the camera streams names the settings that pick the size.
    @Test func aDamagedOrMissizedMJPEGFrameIsRefusedWithTheReason() throws {
        let camera = try JPEGEncoder.encode(
            SyntheticFrames.rgb(width: 320, height: 240) { (x) in (UInt8(x % 256), 90, UInt8((x * 7) % 256)) })
        let cut = Array(camera.prefix(camera.count * 3 / 4))
        let damaged = PixelFrame(
            width: 320, height: 240, format: .mjpeg, planes: [PixelPlane(bytes: cut, stride: cut.count)])
        #expect {
            _ = try JPEGEncoder.encode(damaged)
        } throws: { error in
            "\(error)".contains("damaged JPEG data")
        }
        let missized = PixelFrame(
            width: 640, height: 480, format: .mjpeg, planes: [PixelPlane(bytes: camera, stride: camera.count)])
        #expect(
            throws: PhotoEncodingError.decoderFailed(
                "the camera's MJPEG frame is 320x240, not the 640x480 it streams; set camera.width and camera.height to a size it offers"
            )
        ) {
            _ = try JPEGEncoder.encode(missized)
        }
        let empty = PixelFrame(width: 320, height: 240, format: .mjpeg, planes: [PixelPlane(bytes: [0xFF], stride: 1)])
        #expect(throws: PhotoEncodingError.self) { _ = try JPEGEncoder.encode(empty) }
    }

    @Test func bgr24IsReadInBlueGreenRedOrder() throws {
        var frame = SyntheticFrames.rgb(width: 40, height: 24) { _ in (220, 160, 30) }
        frame.format = .bgr24
        let decoded = try JPEGInspector.decode(try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 95)))
        #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: 20, y: 12), (30, 160, 220)))
    }

    @Test(arguments: [
        CropRatio(width: 4, height: 3), CropRatio(width: 3, height: 4), CropRatio(width: 16, height: 9),
        CropRatio(width: 1, height: 1),
    ])
    func cropHasTheRequestedRatio(ratio: CropRatio) throws {
        for (width, height) in [(641, 479), (1920, 1080), (640, 480), (4056, 3040), (99, 301)] {
            let frame = SyntheticFrames.yuv420(width: width, height: height, y: 128, u: 128, v: 128, padding: 0)
            let info = try JPEGInspector.inspect(try JPEGEncoder.encode(frame, options: JPEGOptions(crop: ratio)))
            let exactWidth = Double(info.height) * Double(ratio.width) / Double(ratio.height)
            let exactHeight = Double(info.width) * Double(ratio.height) / Double(ratio.width)
            #expect(info.width <= width && info.height <= height)
            #expect(info.width == width || info.height == height, "largest region: one side is whole")
            #expect(
                abs(Double(info.width) - exactWidth) <= 1 || abs(Double(info.height) - exactHeight) <= 1,
                "\(width)x\(height) cropped to \(ratio) gave \(info.width)x\(info.height)")
        }
    }

    @Test func cropIsCentered() throws {
        // 1:1 of 1920x1080 keeps columns 420..<1500: green there, blue outside.
        let frame = SyntheticFrames.rgb(width: 1920, height: 1080) { x in
            (420..<1500).contains(x) ? (0, 200, 0) : (0, 0, 200)
        }
        let decoded = try JPEGInspector.decode(
            try JPEGEncoder.encode(frame, options: JPEGOptions(crop: CropRatio(width: 1, height: 1))))
        #expect(decoded.width == 1080 && decoded.height == 1080)
        for x in [0, 1, 540, 1078, 1079] {
            #expect(SyntheticFrames.close(SyntheticFrames.pixel(decoded, x: x, y: 500), (0, 200, 0), tolerance: 12))
        }
    }

    @Test func qualityBoundsAreEnforced() throws {
        let frame = TestPattern.render(width: 320, height: 240, text: "Q")
        for quality in [0, 101, -5] {
            #expect(throws: PhotoEncodingError.invalidQuality(quality)) {
                try JPEGEncoder.encode(frame, options: JPEGOptions(quality: quality))
            }
        }
        let low = try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 1))
        let high = try JPEGEncoder.encode(frame, options: JPEGOptions(quality: 100))
        #expect(low.count < high.count)
        #expect(JPEGOptions().quality == 90)
    }

    @Test func planeTooSmallIsAClearErrorNotACrash() {
        var frame = SyntheticFrames.yuv420(width: 64, height: 48, y: 1, u: 2, v: 3)
        frame.planes[2].bytes.removeLast(100)
        // Chroma is 32 x 24 with stride 48: it needs 48 * 23 + 32 bytes.
        #expect(throws: PhotoEncodingError.planeTooSmall(plane: 2, byteCount: 48 * 24 - 100, required: 48 * 23 + 32)) {
            try JPEGEncoder.encode(frame)
        }
        let message = PhotoEncodingError.planeTooSmall(plane: 2, byteCount: 860, required: 952).description
        #expect(message.contains("plane 2") && message.contains("952"))
    }

    @Test func malformedFramesAreRejected() {
        var frame = SyntheticFrames.yuv420(width: 64, height: 48, y: 1, u: 2, v: 3)
        frame.planes[0].stride = 10
        #expect(throws: PhotoEncodingError.strideTooSmall(plane: 0, stride: 10, minimum: 64)) {
            try JPEGEncoder.encode(frame)
        }
        frame = SyntheticFrames.yuv420(width: 64, height: 48, y: 1, u: 2, v: 3)
        frame.planes.removeLast()
        #expect(throws: PhotoEncodingError.wrongPlaneCount(format: .yuv420, expected: 3, actual: 2)) {
            try JPEGEncoder.encode(frame)
        }
        let empty = PixelFrame(width: 0, height: 10, format: .rgb24, planes: [PixelPlane(bytes: [], stride: 0)])
        #expect(throws: PhotoEncodingError.invalidDimensions(width: 0, height: 10)) { try JPEGEncoder.encode(empty) }
        let ratio = CropRatio(width: 0, height: 1)
        #expect(throws: PhotoEncodingError.invalidAspectRatio(ratio)) {
            try JPEGEncoder.encode(TestPattern.render(width: 8, height: 8, text: ""), options: JPEGOptions(crop: ratio))
        }
    }

    @Test func borrowedMemoryEncodesLikeTheOwnedFrame() throws {
        let frame = SyntheticFrames.yuv420(width: 65, height: 33, y: 200, u: 60, v: 150)
        let owned = try JPEGEncoder.encode(frame)
        // Lay the planes out in one buffer as a camera's mmap'd dmabuf would be.
        let joined = frame.planes.flatMap(\.bytes)
        let borrowed = try joined.withUnsafeBytes { memory in
            var offset = 0
            let planes = frame.planes.map { plane in
                defer { offset += plane.bytes.count }
                return BorrowedPixelPlane(
                    bytes: UnsafeRawBufferPointer(rebasing: memory[offset..<offset + plane.bytes.count]),
                    stride: plane.stride)
            }
            return try JPEGEncoder.encode(BorrowedPixelFrame(width: 65, height: 33, format: .yuv420, planes: planes))
        }
        #expect(borrowed == owned)
    }
}
