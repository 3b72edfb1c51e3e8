// RawExportTests: with export.raw, a photo's RAW kept in the store goes beside it on the stick, in the manifest alone.
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

@Suite(.timeLimit(.minutes(3))) struct RawExportTests {
    /// A RAW-looking payload of `size` bytes, different for every `seed` (and from every photo's).
    static func raw(_ seed: Int, size: Int = 40_000) -> [UInt8] {
        Array("IIRO".utf8) + (0..<size).map { UInt8(truncatingIfNeeded: ($0 &* 13) ^ (seed &* 29) ^ ($0 >> 7)) }
    }

    /// Saves photo `index` (dated over two days, as `StoreFixtures.store` does) with a RAW of `seed`; returns the
    /// photo's and the RAW's names in the store.
    @discardableResult
    static func save(_ index: Int, in store: PhotoStore, seed: Int) throws -> (photo: String, raw: String) {
        let day = PhotoName.DateTime(year: 2026, month: 11, day: 21 + index % 2, hour: 10, minute: index, second: 0)
        let path = try store.save(
            StoreFixtures.photo(index), takenAt: day,
            companions: [PhotoStore.Companion(fileExtension: "cr2", bytes: raw(seed))])
        let photo = String(try #require(path.split(separator: "/").last))
        let name = try #require(PhotoName(fileName: photo)?.companionFileName(extension: "cr2"))
        return (photo, name)
    }

    /// Options for a plain folder, with `export.raw` as given.
    static func options(for stick: String, raw: Bool) -> ExportOptions {
        var options = StoreFixtures.options(for: stick)
        options.raw = raw
        return options
    }

    /// The stick's files under the export folder, manifest and lock left out: path → CRC-32.
    static func files(_ stick: String) -> [String: UInt32] {
        StoreFixtures.snapshot("\(stick)/HeyLook", ignoring: [StickExporter.manifestName, StickExporter.lockName])
    }

    /// Off (the default): the JPEG alone. Making the exporter list companions whatever `options.raw` says fails this.
    @Test func withRawOffAPhotosRAWStaysInTheStore() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let (photo, raw) = try Self.save(0, in: store, seed: 1)
        let stick = temporaryDirectory()
        #expect(ExportOptions().raw == false && BoothSettings().exportRaw == false, "off by default")
        let summary = try StickExporter(store: store, options: Self.options(for: stick, raw: false)).export(to: stick)
        #expect(summary.copied == 1 && summary.raw == 0 && summary.rawAlreadyThere == 0 && summary.skipped.isEmpty)
        #expect(Array(Self.files(stick).keys) == ["2026-11-21/\(photo)"])
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.entries.map(\.source) == [photo])
        #expect(readFile("\(store.directory)/\(raw)") == Self.raw(1))
    }

    /// On: each RAW lands beside its photo under the photo's stem, byte for byte, recorded in the manifest (which
    /// reads back as written) and never in the index; the next export finds it there; a new photo's RAW follows.
    /// Mutations tried: dropping the photos' companions from the plan (`companions: raws` → `[]`) fails this at
    /// `summary.raw == 2`; counting a RAW's copy as a photo's (`summary.copied += 1`) fails it at `copied == 2`.
    /// Passing RAWs to `markExported` (the `isPhotoSource` filters dropped) does not fail it: the index passes over
    /// names it has no photo of, so the index checks below hold either way (the filter keeps that a rule of the
    /// exporter, not a property of the index alone).
    @Test func aRAWGoesBesideItsPhotoOnceAndANewOneFollows() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let first = try Self.save(0, in: store, seed: 1)
        let second = try Self.save(1, in: store, seed: 2)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: Self.options(for: stick, raw: true))
        let indexBefore = try #require(PhotoStore.readSmallFile("\(store.directory)/\(PhotoStore.indexName)"))

        let summary = try exporter.export(to: stick)
        #expect(summary.copied == 2 && summary.raw == 2 && summary.rawAlreadyThere == 0 && summary.skipped.isEmpty)
        let rawPaths = ["2026-11-21/\(first.raw)", "2026-11-22/\(second.raw)"]
        #expect(
            Set(Self.files(stick).keys) == Set(["2026-11-21/\(first.photo)", "2026-11-22/\(second.photo)"] + rawPaths))
        #expect(readFile("\(stick)/HeyLook/\(rawPaths[0])") == Self.raw(1))
        #expect(readFile("\(stick)/HeyLook/\(rawPaths[1])") == Self.raw(2))

        // The manifest records each RAW by its name in the store, and reads back as it was written.
        let text = try #require(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt"))
        let manifest = try #require(ExportManifest.decode(text))
        #expect(manifest.encode() == text)
        let raws = manifest.entries.filter { ExportPlan.isCompanionSource($0.source) }
        #expect(raws.map(\.source) == [first.raw, second.raw] && raws.map(\.path) == rawPaths)
        #expect(raws.allSatisfy { $0.booth == store.boothID && $0.sha256 != nil })
        #expect(raws.map(\.checksum) == [CRC32.checksum(Self.raw(1)), CRC32.checksum(Self.raw(2))])

        // The index holds the photos alone, each recorded on the stick: nothing else of it changed.
        #expect(store.records().map(\.name) == [first.photo, second.photo])
        #expect(store.records().allSatisfy { $0.exportedTo == [summary.stickID] })
        let indexAfter = try #require(PhotoStore.readSmallFile("\(store.directory)/\(PhotoStore.indexName)"))
        #expect(!indexAfter.contains(".cr2") && !indexBefore.contains(".cr2"))
        #expect(indexAfter.split(separator: "\n").count == indexBefore.split(separator: "\n").count)

        // Once there, a RAW is read back and not copied again.
        let before = Self.files(stick)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 0 && again.raw == 0 && again.rawAlreadyThere == 2 && again.alreadyThere == 2)
        #expect(Self.files(stick) == before)

        // A new photo's RAW follows at the next export.
        let third = try Self.save(2, in: store, seed: 3)
        let next = try exporter.export(to: stick)
        #expect(next.copied == 1 && next.raw == 1 && next.rawAlreadyThere == 2)
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(third.raw)") == Self.raw(3))
    }

    /// A same-size file someone else put under the RAW's name stays as it is; the RAW is copied beside it under the
    /// booth's tag, as a photo would be; the manifest's claim on it is read back at each insert, so same-size junk put
    /// in its copy's place since is left alone too. Mutations tried: adopting a same-size file without comparing its
    /// digest (`adoptable` returning `ours` whatever is there) fails this (the junk is recorded as the RAW, and the
    /// final read-back fails the export); reading no claim back for a RAW (companions left out of `checkClaims`'
    /// `saved`) fails the last export (the junk is trusted as the RAW: `raw == 1` is 0, nothing copied).
    @Test func aRAWMeetingSameSizeJunkUnderItsNameIsCopiedBesideIt() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let (_, raw) = try Self.save(0, in: store, seed: 1)
        let stick = temporaryDirectory()
        let junk = [UInt8](repeating: 0x55, count: Self.raw(1).count)
        try PhotoStore.makeDirectories("\(stick)/HeyLook/2026-11-21")
        try DurableFile().write(junk, directory: "\(stick)/HeyLook/2026-11-21", name: raw, temporaryName: ".t")

        let exporter = StickExporter(store: store, options: Self.options(for: stick, raw: true))
        let summary = try exporter.export(to: stick)
        #expect(summary.copied == 1 && summary.raw == 1 && summary.skipped.isEmpty)
        let tagged = ExportPlan.alternativeName(raw, booth: store.boothID, attempt: 1)
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(tagged)") == Self.raw(1))
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(raw)") == junk)

        // The tagged copy is the RAW's from now on.
        let again = try exporter.export(to: stick)
        #expect(again.raw == 0 && again.rawAlreadyThere == 1)
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(raw)") == junk)

        // Same-size junk in the tagged copy's place: the claim reads back wrong, and the RAW goes beside both.
        let other = [UInt8](repeating: 0x66, count: junk.count)
        #expect(unlink("\(stick)/HeyLook/2026-11-21/\(tagged)") == 0)
        try DurableFile().write(other, directory: "\(stick)/HeyLook/2026-11-21", name: tagged, temporaryName: ".t")
        let third = try exporter.export(to: stick)
        #expect(third.raw == 1 && third.rawAlreadyThere == 0 && third.skipped.isEmpty)
        let numbered = ExportPlan.alternativeName(raw, booth: store.boothID, attempt: 2)
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(numbered)") == Self.raw(1))
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(tagged)") == other)
        #expect(readFile("\(stick)/HeyLook/2026-11-21/\(raw)") == junk)
    }
}

/// A photo saved undated with its RAW, then dated by a phone's clock: its RAW follows the dated copy's name.
@Suite(.timeLimit(.minutes(3))) struct RedatedRawExportTests {
    static let boot = String(repeating: "6", count: 32)
    /// When the phone set the clock; the photo was taken 60 s before.
    static let setTo: Int64 = 1_795_780_800

    /// Mutation tried: naming the RAW after its store name (`companionStickName` given `photo.name`, not the copy's
    /// own name) fails this: the RAW lands as `HeyLook_undated_000001.cr2` in the date folder.
    @Test func aRedatedPhotosRAWFollowsItsStickName() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let fields = ExifFields(dateTime: nil, cameraModel: "EOS", orientation: 1, exposureTime: .microseconds(10_000))
        let frame = TestPattern.render(width: 320, height: 240, text: "RAW")
        let jpeg = try JPEGEncoder.encode(frame, options: JPEGOptions(exif: fields))
        let bytes = RawExportTests.raw(7)
        _ = try store.save(
            jpeg, takenAt: nil, moment: BootInstant(boot: Self.boot, instant: .seconds(10)),
            companions: [PhotoStore.Companion(fileExtension: "nef", bytes: bytes)])
        let at = try #require(BootInstant(boot: Self.boot, instant: .seconds(70)))
        #expect(try store.date(by: ClockMark(setTo: Self.setTo, was: 0, phone: "::1", at: at)) == 1)

        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: RawExportTests.options(for: stick, raw: true))
        let summary = try exporter.export(to: stick)
        #expect(summary.copied == 1 && summary.raw == 1 && summary.skipped.isEmpty)
        let taken = PhotoName.DateTime(localSeconds: Self.setTo - 60)
        let stem = "\(taken.dateString)/HeyLook_\(taken.dateString)_\(taken.timeString)_000001"
        #expect(Set(RawExportTests.files(stick).keys) == ["\(stem).jpg", "\(stem).nef"])
        // The RAW's bytes are never rewritten (the JPEG's copy carries the date in its EXIF; the RAW as it was).
        #expect(readFile("\(stick)/HeyLook/\(stem).nef") == bytes)
        #expect(readFile("\(store.directory)/HeyLook_undated_000001.nef") == bytes)
        let again = try exporter.export(to: stick)
        #expect(again.raw == 0 && again.rawAlreadyThere == 1 && again.alreadyThere == 1)
    }
}
