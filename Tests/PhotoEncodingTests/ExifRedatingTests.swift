// ExifRedatingTests: a photo saved undated gets its date in EXIF, and every other byte of it stays as it was.
import Testing

@testable import PhotoEncoding

@Suite struct ExifRedatingTests {
    let fields = ExifFields(
        dateTime: nil, cameraModel: "imx708", orientation: 6, exposureTime: .microseconds(16_667), analogueGain: 2.5)

    func undatedPhoto() throws -> [UInt8] {
        let frame = SyntheticFrames.rgb(width: 64, height: 48) { x in (UInt8(x % 256), 90, 200) }
        return try JPEGEncoder.encode(frame, options: JPEGOptions(exif: fields))
    }

    @Test func theCopyIsDatedAndOtherwiseThePhoto() throws {
        let photo = try undatedPhoto()
        let redating = try #require(try ExifRedating(prefix: photo, dateTime: "2026:11:28 02:32:20"))
        let copy = redating.head + photo[redating.replaced...]
        var dated = fields
        dated.dateTime = "2026:11:28 02:32:20"
        #expect(try JPEGInspector.inspect(copy).exif == dated)
        #expect(try JPEGInspector.inspect(photo).exif == fields)
        // The image data, from the end of the EXIF segment on, is the photo's own.
        #expect(Array(copy.suffix(photo.count - redating.replaced)) == Array(photo[redating.replaced...]))
        #expect(try JPEGInspector.decode(copy) == JPEGInspector.decode(photo))
        // What comes before the EXIF segment (the start marker; a JFIF segment in others' files) is kept too.
        let exifStart = try #require((2..<photo.count - 1).first { photo[$0] == 0xFF && photo[$0 + 1] == 0xE1 })
        #expect(Array(copy.prefix(exifStart)) == Array(photo.prefix(exifStart)))
    }

    @Test func aPrefixOfTheLimitIsEnough() throws {
        let photo = try undatedPhoto() + [UInt8](repeating: 0, count: ExifRedating.prefixLimit)
        let whole = try ExifRedating(prefix: photo, dateTime: "2026:01:02 03:04:05")
        let cut = try ExifRedating(
            prefix: Array(photo.prefix(ExifRedating.prefixLimit)), dateTime: "2026:01:02 03:04:05")
        #expect(whole != nil && whole == cut)
    }

    @Test func aPhotoWithoutEXIFHasNothingToDate() throws {
        let frame = SyntheticFrames.rgb(width: 16, height: 16) { _ in (1, 2, 3) }
        #expect(try ExifRedating(prefix: try JPEGEncoder.encode(frame), dateTime: "2026:01:02 03:04:05") == nil)
    }

    @Test func everyCutOfThePhotoIsNilOrTheRedatingWithoutTrapping() throws {
        let photo = try undatedPhoto()
        let whole = try #require(try ExifRedating(prefix: photo, dateTime: "2026:01:02 03:04:05"))
        for length in 0..<whole.replaced {
            #expect(try ExifRedating(prefix: Array(photo.prefix(length)), dateTime: "2026:01:02 03:04:05") == nil)
        }
        #expect(try ExifRedating(prefix: Array(photo.prefix(whole.replaced)), dateTime: "2026:01:02 03:04:05") == whole)
        #expect(try ExifRedating(prefix: Array("not a jpeg".utf8), dateTime: "2026:01:02 03:04:05") == nil)
    }

    @Test func aDateThatIsNotEXIFsIsRefused() throws {
        let photo = try undatedPhoto()
        #expect(throws: PhotoEncodingError.self) { try ExifRedating(prefix: photo, dateTime: "2026-11-28 02:32:20") }
    }
}
