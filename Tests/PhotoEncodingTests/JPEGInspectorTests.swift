// JPEGInspectorTests: a JPEG's size, orientation and EXIF fields read back.
import Testing

@testable import PhotoEncoding

@Suite struct JPEGInspectorTests {
    @Test func exifFieldsReadBack() throws {
        let fields = ExifFields(
            dateTime: "2026:11:22 14:03:07", cameraModel: "imx708_wide", make: "HeyLook Booth", orientation: 6,
            exposureTime: .microseconds(16_667), analogueGain: 2.5)
        let frame = SyntheticFrames.yuv420(width: 640, height: 480, y: 90, u: 128, v: 128)
        let jpeg = try JPEGEncoder.encode(
            frame, options: JPEGOptions(crop: CropRatio(width: 1, height: 1), exif: fields))
        let info = try JPEGInspector.inspect(jpeg)
        #expect(info.width == 480 && info.height == 480 && info.components == 3)
        #expect(info.exif == fields)
        // APP1 comes straight after SOI, as Exif requires.
        #expect(Array(jpeg.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
    }

    @Test func optionalExifFieldsStayAbsent() throws {
        let fields = ExifFields(dateTime: "2026:01:02 03:04:05", cameraModel: "simulated")
        let jpeg = try JPEGEncoder.encode(
            TestPattern.render(width: 64, height: 64, text: "X"), options: JPEGOptions(exif: fields))
        let exif = try #require(try JPEGInspector.inspect(jpeg).exif)
        #expect(exif == fields)
        #expect(exif.exposureTime == nil && exif.analogueGain == nil)
    }

    @Test func noExifMeansNoFields() throws {
        let jpeg = try JPEGEncoder.encode(TestPattern.render(width: 64, height: 64, text: ""))
        #expect(try JPEGInspector.inspect(jpeg).exif == nil)
    }

    @Test func invalidExifIsRejected() {
        let frame = TestPattern.render(width: 16, height: 16, text: "")
        let bad = [
            ExifFields(dateTime: "2026-11-22 14:03:07", cameraModel: "m"),
            ExifFields(dateTime: "2026:11:22 14:03:07", cameraModel: "m", orientation: 9),
            ExifFields(dateTime: "2026:11:22 14:03:07", cameraModel: "caméra"),
            ExifFields(dateTime: "2026:11:22 14:03:07", cameraModel: "m", exposureTime: .microseconds(0)),
        ]
        for fields in bad {
            #expect(throws: PhotoEncodingError.self) {
                try JPEGEncoder.encode(frame, options: JPEGOptions(exif: fields))
            }
        }
    }

    @Test func garbageIsADecoderErrorNotACrash() {
        for bytes: [UInt8] in [[], [0, 1, 2, 3], Array(repeating: 0xFF, count: 100), [0xFF, 0xD8, 0xFF]] {
            #expect(throws: PhotoEncodingError.self) { try JPEGInspector.inspect(bytes) }
            #expect(throws: PhotoEncodingError.self) { try JPEGInspector.decode(bytes) }
        }
    }
}
