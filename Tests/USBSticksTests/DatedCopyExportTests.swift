// DatedCopyExportTests: a photo saved undated and dated since goes to a stick as a dated copy, verified as the photo.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import Checksum
import Glibc
import PhotoEncoding
import PhotoModel
import Testing

@testable import PhotoStore
@testable import USBSticks

@Suite(.timeLimit(.minutes(3))) struct DatedCopyExportTests {
    static let boot = String(repeating: "5", count: 32)
    /// When the phone set the clock; the photo was taken 60 s before.
    static let setTo: Int64 = 1_795_780_800

    let fields = ExifFields(dateTime: nil, cameraModel: "imx708", orientation: 1, exposureTime: .microseconds(10_000))

    /// A store holding one photo the booth saved undated (a real JPEG with its EXIF), then dated by a phone's clock,
    /// and the photo's bytes.
    func datedStore() throws -> (PhotoStore, String, [UInt8]) {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let frame = TestPattern.render(width: 320, height: 240, text: "HEYLOOK")
        let jpeg = try JPEGEncoder.encode(frame, options: JPEGOptions(exif: fields))
        let path = try store.save(
            jpeg, takenAt: nil, moment: BootInstant(boot: Self.boot, instant: .seconds(10)))
        let at = try #require(BootInstant(boot: Self.boot, instant: .seconds(70)))
        #expect(try store.date(by: ClockMark(setTo: Self.setTo, was: 0, phone: "::1", at: at)) == 1)
        return (store, String(path.split(separator: "/").last!), jpeg)
    }

    /// The stick's files under the export folder, path → bytes.
    func files(_ stick: String) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        for (path, _) in StoreFixtures.snapshot("\(stick)/HeyLook")
        where path != "manifest.txt" && path != StickExporter.lockName {
            found[path] = readFile("\(stick)/HeyLook/\(path)")
        }
        return found
    }

    @Test func theCopyHasTheDateInItsNameAndEXIFAndOtherwiseThePhotosBytes() throws {
        let (store, name, jpeg) = try datedStore()
        #expect(name.hasPrefix("HeyLook_undated_"))
        let stick = temporaryDirectory()
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.copied == 1)
        let taken = PhotoName.DateTime(localSeconds: Self.setTo - 60)
        let expected = "\(taken.dateString)/HeyLook_\(taken.dateString)_\(taken.timeString)_000001.jpg"
        let found = files(stick)
        #expect(Array(found.keys) == [expected])
        let copy = try #require(found[expected])
        var dated = fields
        dated.dateTime = taken.exifString
        #expect(try JPEGInspector.inspect(copy).exif == dated)
        let redating = try #require(try ExifRedating(prefix: jpeg, dateTime: taken.exifString))
        #expect(copy == redating.head + jpeg[redating.replaced...])
        // The store keeps the photo as saved, and counts it exported (cleanup may delete it: the stick has it).
        #expect(readFile("\(store.directory)/\(name)") == jpeg)
        #expect(store.records().first { $0.name == name }?.exportedTo == [summary.stickID])
    }

    @Test func theNextExportFindsTheDatedCopyThere() throws {
        let (store, _, _) = try datedStore()
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        let first = try exporter.export(to: stick)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 0 && again.adopted == 0 && again.alreadyThere == 1 && again.stickID == first.stickID)
        #expect(files(stick).count == 1)
    }

    @Test func aDatedCopyWithoutItsManifestIsAdoptedNotCopiedAgain() throws {
        let (store, _, _) = try datedStore()
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        _ = try exporter.export(to: stick)
        #expect(unlink("\(stick)/HeyLook/manifest.txt") == 0)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 0 && again.adopted == 1)
        #expect(files(stick).count == 1)
    }

    @Test func aDatedCopyThatIsNotThePhotoIsNotCountedAsIt() throws {
        let (store, name, _) = try datedStore()
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        _ = try exporter.export(to: stick)
        // A file of the copy's name and size whose image differs (a failing stick, or forged) is not the photo: the
        // next export copies the photo again beside it.
        let path = try #require(files(stick).keys.first)
        var bytes = try #require(files(stick)[path])
        bytes[bytes.count - 10] ^= 0xFF
        try DurableFile().write(bytes, path: "\(stick)/HeyLook/\(path)", replacing: true)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 1)
        #expect(files(stick).count == 2)
        #expect(store.records().first { $0.name == name }?.exportedTo.count == 1)
    }

    @Test func aPhotoOnAStickBeforeItWasDatedStaysThereAsSaved() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let jpeg = try JPEGEncoder.encode(
            TestPattern.render(width: 64, height: 48, text: "A"), options: JPEGOptions(exif: fields))
        let path = try store.save(jpeg, takenAt: nil, moment: BootInstant(boot: Self.boot, instant: .seconds(10)))
        let name = String(path.split(separator: "/").last!)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        _ = try exporter.export(to: stick)
        let at = try #require(BootInstant(boot: Self.boot, instant: .seconds(70)))
        #expect(try store.date(by: ClockMark(setTo: Self.setTo, was: 0, phone: "::1", at: at)) == 1)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 0 && again.alreadyThere == 1)
        #expect(files(stick) == ["undated/\(name)": jpeg])
    }
}
