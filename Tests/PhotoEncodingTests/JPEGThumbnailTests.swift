// JPEGThumbnailTests: scaled-decode thumbnails: the scale chosen, the size, upright quadrants, djpeg, bad input.
import Foundation
import Testing

@testable import PhotoEncoding

/// Quadrant colors of the source photo: top-left, top-right, bottom-left, bottom-right.
private let red = (220, 30, 30)
private let green = (30, 200, 30)
private let blue = (30, 30, 220)
private let yellow = (230, 220, 30)

@Suite struct JPEGThumbnailTests {
    // MARK: The plan: which scale, which size

    @Test(arguments: [
        // source, long edge -> 1/N, decoded, thumbnail (before orientation)
        (4056, 3040, 400, 8, 507, 380, 400, 300),
        (4056, 3040, 507, 8, 507, 380, 507, 380),
        (4056, 3040, 508, 4, 1014, 760, 508, 381),
        (4056, 3040, 600, 4, 1014, 760, 600, 450),
        (4056, 3040, 1200, 2, 2028, 1520, 1200, 899),
        (4056, 3040, 3000, 1, 4056, 3040, 3000, 2249),
        (3040, 4056, 400, 8, 380, 507, 300, 400),
        (1601, 1203, 200, 8, 201, 151, 200, 150),
        (300, 200, 400, 1, 300, 200, 300, 200),
    ])
    func planPicksTheLargestScaleThatStillCoversTheLongEdge(
        width: Int, height: Int, longEdge: Int, denominator: Int, decodedWidth: Int, decodedHeight: Int,
        thumbnailWidth: Int, thumbnailHeight: Int
    ) {
        let plan = ThumbnailPlan(sourceWidth: width, sourceHeight: height, longEdge: longEdge)
        #expect(plan.scaleDenominator == denominator)
        #expect(plan.decodedWidth == decodedWidth && plan.decodedHeight == decodedHeight)
        #expect(plan.width == thumbnailWidth && plan.height == thumbnailHeight)
    }

    @Test func planNeverUpscalesAndNeverDecodesMoreThanNeeded() {
        for (width, height) in [(4056, 3040), (3040, 4056), (1920, 1080), (1601, 1203), (9, 8), (1, 1), (640, 640)] {
            for longEdge in [1, 2, 7, 50, 120, 199, 200, 201, 400, 507, 508, 1000, 2028, 5000] {
                let plan = ThumbnailPlan(sourceWidth: width, sourceHeight: height, longEdge: longEdge)
                let n = plan.scaleDenominator
                let target = min(longEdge, max(width, height))
                let context = "\(width)x\(height) to \(longEdge): 1/\(n)"
                #expect(plan.decodedWidth == (width + n - 1) / n && plan.decodedHeight == (height + n - 1) / n)
                #expect(max(plan.decodedWidth, plan.decodedHeight) >= target, "decoded too small: \(context)")
                if n < 8 {
                    let next = 2 * n
                    let nextLong = (max(width, height) + next - 1) / next
                    #expect(nextLong < target, "1/\(next) would have been enough: \(context)")
                }
                #expect(plan.width <= plan.decodedWidth && plan.height <= plan.decodedHeight, "upscaled: \(context)")
                #expect(max(plan.width, plan.height) == target, "long edge: \(context)")
            }
        }
    }

    // MARK: The scaled decode

    @Test(arguments: [(1, 1600, 1200), (2, 800, 600), (4, 400, 300), (8, 200, 150)])
    func decodeIsScaledInTheDCTDomain(denominator: Int, width: Int, height: Int) throws {
        let frame = try JPEGThumbnail.decode(try quadrantPhoto(orientation: 1), scaleDenominator: denominator)
        #expect(frame.width == width && frame.height == height)
        #expect(frame.planes[0].bytes.count == width * height * 3)
        #expect(quadrants(of: frame) == [red, green, blue, yellow].map(colorName))
    }

    @Test func scaledSidesRoundUpAsLibjpegDoes() throws {
        let jpeg = try JPEGEncoder.encode(TestPattern.render(width: 1601, height: 1203, text: "1601"))
        let frame = try JPEGThumbnail.decode(jpeg, scaleDenominator: 8)
        #expect(frame.width == 201 && frame.height == 151)
    }

    // MARK: Thumbnails

    @Test(arguments: [
        // long edge -> 1/N, decoded, thumbnail
        (160, 8, 200, 150, 160, 120),
        (200, 8, 200, 150, 200, 150),
        (300, 4, 400, 300, 300, 225),
        (400, 4, 400, 300, 400, 300),
        (700, 2, 800, 600, 700, 525),
        (2000, 1, 1600, 1200, 1600, 1200),
    ])
    func thumbnailIsDecodedAtThePlannedScale(
        longEdge: Int, denominator: Int, decodedWidth: Int, decodedHeight: Int, width: Int, height: Int
    ) throws {
        let thumbnail = try JPEGThumbnail.make(from: try quadrantPhoto(orientation: 1), longEdge: longEdge)
        // What libjpeg reported decoding: a full decode would say 1600x1200 here.
        #expect(thumbnail.scaleDenominator == denominator)
        #expect(thumbnail.decodedWidth == decodedWidth && thumbnail.decodedHeight == decodedHeight)
        #expect(thumbnail.width == width && thumbnail.height == height)
        let info = try JPEGInspector.inspect(thumbnail.jpeg)
        #expect(info.width == width && info.height == height)
    }

    /// Each orientation's upright quadrants, written out by hand from the EXIF definitions.
    @Test(arguments: [
        (1, [red, green, blue, yellow]),
        (2, [green, red, yellow, blue]),  // mirrored left to right
        (3, [yellow, blue, green, red]),  // 180°
        (4, [blue, yellow, red, green]),  // mirrored top to bottom
        (5, [red, blue, green, yellow]),  // transposed
        (6, [blue, red, yellow, green]),  // 90° clockwise: the left column ends on top
        (7, [yellow, green, blue, red]),  // transversed
        (8, [green, yellow, red, blue]),  // 90° counter-clockwise: the right column ends on top
    ])
    func thumbnailIsUprightWithNoOrientationLeft(orientation: Int, expected: [(Int, Int, Int)]) throws {
        let thumbnail = try JPEGThumbnail.make(from: try quadrantPhoto(orientation: orientation), longEdge: 160)
        let sideways = orientation >= 5
        #expect(thumbnail.orientation == orientation)
        #expect(thumbnail.width == (sideways ? 120 : 160) && thumbnail.height == (sideways ? 160 : 120))
        let decoded = try JPEGInspector.decode(thumbnail.jpeg)
        #expect(quadrants(of: decoded) == expected.map(colorName))
        // Plain JFIF: APP0 right after SOI and no EXIF, so no viewer turns it a second time.
        #expect(Array(thumbnail.jpeg.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0])
        #expect(try JPEGInspector.inspect(thumbnail.jpeg).exif == nil)
    }

    /// jpegtran's lossless transforms are the reference each EXIF orientation names (as exiftran uses them):
    /// the thumbnail of a tagged photo matches the thumbnail of the photo jpegtran turned upright.
    @Test(arguments: [
        (2, ["-flip", "horizontal"]), (3, ["-rotate", "180"]), (4, ["-flip", "vertical"]), (5, ["-transpose"]),
        (6, ["-rotate", "90"]), (7, ["-transverse"]), (8, ["-rotate", "270"]),
    ])
    func orientationMatchesJpegtran(orientation: Int, transform: [String]) throws {
        let photo = try gradientPhoto(orientation: orientation)
        let turned = try run("/usr/bin/jpegtran", ["-perfect", "-copy", "none"] + transform, input: photo)
        let ours = try JPEGInspector.decode(try JPEGThumbnail.make(from: photo, longEdge: 200, quality: 95).jpeg)
        let reference = try JPEGInspector.decode(try JPEGThumbnail.make(from: turned, longEdge: 200, quality: 95).jpeg)
        #expect(ours.width == reference.width && ours.height == reference.height)
        #expect(meanDifference(ours, reference) < 2, "orientation \(orientation)")
    }

    @Test func djpegReadsTheThumbnail() throws {
        let thumbnail = try JPEGThumbnail.make(from: try quadrantPhoto(orientation: 6), longEdge: 160)
        let ppm = try run("/usr/bin/djpeg", ["-ppm"], input: thumbnail.jpeg)
        let frame = try #require(Self.frame(fromPPM: ppm))
        #expect(frame.width == 120 && frame.height == 160)
        #expect(quadrants(of: frame) == [blue, red, yellow, green].map(colorName))
    }

    // MARK: Bad input

    @Test func damagedOrForeignDataIsAnErrorValue() throws {
        let photo = try quadrantPhoto(orientation: 6)
        var random = SeededBytes(seed: 25)
        let inputs: [(String, [UInt8])] = [
            ("empty", []),
            ("SOI only", [0xFF, 0xD8]),
            ("header only", Array(photo.prefix(600))),
            ("cut in half", Array(photo.prefix(photo.count / 2))),
            ("cut before EOI", Array(photo.prefix(photo.count - 200))),
            ("random", random.next(4096)),
            ("SOI then random", [0xFF, 0xD8] + random.next(4096)),
            ("PNG signature", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + random.next(64)),
        ]
        for (name, bytes) in inputs {
            #expect(throws: PhotoEncodingError.self, "\(name)") { try JPEGThumbnail.make(from: bytes) }
            #expect(throws: PhotoEncodingError.self, "\(name)") { try JPEGThumbnail.decode(bytes, scaleDenominator: 8) }
        }
        // libjpeg alone would decode the cut file with grey blocks; the thumbnail refuses it.
        #expect(try JPEGInspector.decode(Array(photo.prefix(photo.count / 2))).width == 1600)
        let error = #expect(throws: PhotoEncodingError.self) {
            try JPEGThumbnail.make(from: Array(photo.prefix(photo.count / 2)))
        }
        #expect(error?.description.contains("damaged JPEG data") == true, "\(String(describing: error))")
    }

    @Test func flippedBytesNeverTrap() throws {
        let photo = try quadrantPhoto(orientation: 1)
        var random = SeededBytes(seed: 28)
        for _ in 0..<40 {
            var bytes = photo
            for _ in 0..<8 {
                let at = Int(random.nextWord() % UInt64(bytes.count))
                bytes[at] ^= UInt8(truncatingIfNeeded: random.nextWord() | 1)
            }
            // Either a thumbnail or an error value; a trap would end the test run.
            if let thumbnail = try? JPEGThumbnail.make(from: bytes, longEdge: 100) {
                #expect(try JPEGInspector.inspect(thumbnail.jpeg).width == thumbnail.width)
            }
        }
    }

    @Test func badArgumentsAreErrorValues() throws {
        let photo = try quadrantPhoto(orientation: 1)
        #expect(throws: PhotoEncodingError.invalidDimensions(width: 0, height: 0)) {
            try JPEGThumbnail.make(from: photo, longEdge: 0)
        }
        #expect(throws: PhotoEncodingError.invalidQuality(0)) { try JPEGThumbnail.make(from: photo, quality: 0) }
        for denominator in [0, 3, 16, -8] {
            #expect(throws: PhotoEncodingError.self) { try JPEGThumbnail.decode(photo, scaleDenominator: denominator) }
        }
    }

    // MARK: The area filter

    @Test func areaFilterAveragesWhatEachOutputPixelCovers() {
        // 3 -> 2: each output covers 1.5 inputs; the middle input is split half and half between them.
        let row = PixelFrame(
            width: 3, height: 1, format: .rgb24,
            planes: [PixelPlane(bytes: [0, 0, 0, 90, 90, 90, 180, 180, 180], stride: 9)])
        let out = AreaResampler.resized(row, width: 2, height: 1)
        #expect(out.planes[0].bytes == [30, 30, 30, 150, 150, 150])
        for (inputs, outputs) in [(507, 400), (380, 300), (8, 1), (5, 5), (1600, 7), (65500, 1)] {
            let taps = AreaResampler.Taps(from: inputs, to: outputs)
            #expect(taps.first == (0..<outputs).map { $0 * inputs / outputs })
            for i in 0..<outputs {
                let weights = taps.weights(of: i)
                #expect(weights.reduce(0) { $0 + Int($1) } == 1 << 14, "\(inputs) -> \(outputs): output \(i)")
                // Each weight is its overlap with the output's span, as a fraction of the span.
                for (k, weight) in weights.enumerated() {
                    let source = taps.first[i] + k
                    let overlap = min((i + 1) * inputs, (source + 1) * outputs) - max(i * inputs, source * outputs)
                    #expect(abs(Double(weight) - Double(overlap << 14) / Double(inputs)) <= 1)
                }
            }
        }
    }

    @Test func areaFilterKeepsAFlatColorAndAveragesTwoByTwo() {
        let flat = SyntheticFrames.rgb(width: 507, height: 380, padding: 5) { _ in (17, 130, 250) }
        let small = AreaResampler.resized(flat, width: 400, height: 300)
        #expect(small.width == 400 && small.height == 300 && small.planes[0].stride == 1200)
        #expect(small.planes[0].bytes == Array([[UInt8]](repeating: [17, 130, 250], count: 400 * 300).joined()))
        let checker = PixelFrame(
            width: 2, height: 2, format: .rgb24,
            planes: [PixelPlane(bytes: [0, 0, 0, 100, 100, 100, 200, 200, 200, 101, 101, 101], stride: 6)])
        #expect(AreaResampler.resized(checker, width: 1, height: 1).planes[0].bytes == [100, 100, 100])
    }

    // MARK: Fixtures

    /// A 1600x1200 JPEG in four flat quadrants (red, green / blue, yellow) tagged with `orientation`.
    private func quadrantPhoto(orientation: Int) throws -> [UInt8] {
        try JPEGEncoder.encode(Self.quadrantFrame, options: options(orientation: orientation))
    }

    /// A 1600x1200 JPEG with no symmetry (two ramps and a diagonal band), tagged with `orientation`.
    private func gradientPhoto(orientation: Int) throws -> [UInt8] {
        try JPEGEncoder.encode(Self.gradientFrame, options: options(orientation: orientation))
    }

    /// The quadrant picture, drawn once for every test.
    private static let quadrantFrame = frame(width: 1600, height: 1200) { x, y in
        y < 600 ? (x < 800 ? red : green) : (x < 800 ? blue : yellow)
    }

    /// The gradient picture, drawn once for every test.
    private static let gradientFrame = frame(width: 1600, height: 1200) { x, y in
        (x * 255 / 1600, y * 255 / 1200, abs(x - 2 * y) < 150 ? 255 : 40)
    }

    private static func frame(width: Int, height: Int, color: (Int, Int) -> (Int, Int, Int)) -> PixelFrame {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = color(x, y)
                let at = (y * width + x) * 3
                (bytes[at], bytes[at + 1], bytes[at + 2]) = (UInt8(r), UInt8(g), UInt8(b))
            }
        }
        return PixelFrame(
            width: width, height: height, format: .rgb24, planes: [PixelPlane(bytes: bytes, stride: width * 3)])
    }

    private func options(orientation: Int) -> JPEGOptions {
        JPEGOptions(quality: 90, exif: ExifFields(dateTime: nil, cameraModel: "test", orientation: orientation))
    }

    /// The colors at the centers of the four quadrants, rounded to the nearest of the fixture's colors.
    private func quadrants(of frame: PixelFrame) -> [String] {
        let (w, h) = (frame.width, frame.height)
        return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].map { x, y in
            colorName(SyntheticFrames.pixel(frame, x: x, y: y))
        }
    }

    private func meanDifference(_ a: PixelFrame, _ b: PixelFrame) -> Double {
        let total = zip(a.planes[0].bytes, b.planes[0].bytes).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(a.planes[0].bytes.count)
    }

    /// Runs `tool` with `jpeg` on its standard input and returns its standard output.
    private func run(_ tool: String, _ arguments: [String], input: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnail-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("in.jpg")
        let output = folder.appendingPathComponent("out")
        try Data(input).write(to: source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments + ["-outfile", output.path, source.path]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments) failed")
        return Array(try Data(contentsOf: output))
    }

    /// A binary PPM (P6, maxval 255) as an RGB24 frame.
    private static func frame(fromPPM ppm: [UInt8]) -> PixelFrame? {
        var fields: [String] = []
        var index = 0
        while fields.count < 4, index < ppm.count {
            while index < ppm.count, ppm[index] == 0x20 || ppm[index] == 0x0A { index += 1 }
            let start = index
            while index < ppm.count, ppm[index] != 0x20, ppm[index] != 0x0A { index += 1 }
            fields.append(String(decoding: ppm[start..<index], as: UTF8.self))
        }
        index += 1
        guard fields.count == 4, fields[0] == "P6", fields[3] == "255", let width = Int(fields[1]),
            let height = Int(fields[2]), ppm.count - index == width * height * 3
        else { return nil }
        return PixelFrame(
            width: width, height: height, format: .rgb24,
            planes: [PixelPlane(bytes: Array(ppm[index...]), stride: width * 3)])
    }
}

/// The name of the fixture color `rgb` is within JPEG's losses of, or its values.
private func colorName(_ rgb: (Int, Int, Int)) -> String {
    let palette = [("red", red), ("green", green), ("blue", blue), ("yellow", yellow)]
    return palette.first { SyntheticFrames.close($0.1, rgb, tolerance: 16) }?.0 ?? "(\(rgb.0), \(rgb.1), \(rgb.2))"
}

/// Deterministic bytes (SplitMix64) for the garbage inputs.
private struct SeededBytes {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func nextWord() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: nextWord()) }
    }
}
