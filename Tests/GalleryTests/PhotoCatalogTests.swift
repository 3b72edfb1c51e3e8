// PhotoCatalogTests: the catalog follows the photos folder, tells slideshows of new photos, and its thumbnails.
import BoothCore
import BoothSystem
import BoothTestSupport
import Glibc
import PhotoEncoding
import PhotoModel
import PhotoStore
import Testing

@testable import Gallery

@Suite struct PhotoCatalogTests {
    /// A real JPEG under a photo's name in `folder`, written as the booth does (a temp name, then a rename).
    static func save(_ sequence: Int, in folder: String) throws -> String {
        let name = PhotoName(dateTime: nil, sequence: sequence).fileName
        let jpeg = try JPEGEncoder.encode(
            TestPattern.render(width: 640, height: 480, text: "\(sequence)"), options: JPEGOptions(quality: 80))
        let temporary = "\(folder)/.\(name).partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        #expect(jpeg.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == jpeg.count)
        close(fd)
        try #require(rename(temporary, "\(folder)/\(name)") == 0)
        return name
    }

    /// Photos saved undated in this boot are listed undated until the gallery's clock mark is there, then dated
    /// (in the local zone) from its moment; removing the mark (a new boot) makes them undated again.
    @Test func aClockMarkDatesThePhotosSavedUndatedEarlierInTheBoot() async throws {
        let folder = temporaryDirectory()
        let store = try PhotoStore(directory: folder, reserve: 0)
        let boot = "6f1c2a4e9b7d4c0e8a1f2b3c4d5e6f70"
        let jpeg = try JPEGEncoder.encode(
            TestPattern.render(width: 64, height: 48, text: "1"), options: JPEGOptions(quality: 80))
        let saved = try store.save(jpeg, takenAt: nil, moment: BootInstant(boot: boot, instant: .seconds(100)))
        let name = String(saved.split(separator: "/").last ?? "")
        let markPath = "\(temporaryDirectory())/clock"
        let catalog = try PhotoCatalog(directory: folder, clockMark: markPath)
        #expect(await catalog.listing.photo(named: name)?.day == nil)
        let at = try #require(BootInstant(boot: boot, instant: .seconds(160)))
        let mark = ClockMark(setTo: 1_795_780_800, was: 1_000, phone: "::1", at: at)
        try DurableFile().write(Array(mark.text.utf8), path: markPath)
        try await catalog.refresh()
        let dated = try #require(await catalog.listing.photo(named: name))
        let local = WallTime(seconds: 1_795_780_800 - 60, local: true)
        #expect(dated.dated == 1_795_780_740)
        #expect(dated.day == String(local.text.prefix(10)) && dated.time == String(local.text.suffix(8)))
        // The mark goes at the next boot: the photo is undated again, unless the booth wrote its date in the
        // index (it does at its next save), which outlives the mark.
        #expect(unlink(markPath) == 0)
        try await catalog.refresh()
        #expect(await catalog.listing.photo(named: name)?.day == nil)
        #expect(try store.date(by: mark) == 1)
        try await catalog.refresh()
        #expect(await catalog.listing.photo(named: name)?.dated == 1_795_780_740)
    }

    @Test func newPhotosAreToldToSubscribersAndGonePhotosReported() async throws {
        let folder = temporaryDirectory()
        let first = try Self.save(1, in: folder)
        let catalog = try PhotoCatalog(directory: folder)
        #expect(await catalog.listing.photos.map(\.name) == [first])
        var names = await catalog.subscribe().makeAsyncIterator()
        let second = try Self.save(2, in: folder)
        #expect(try await catalog.refresh().isEmpty)
        #expect(await names.next() == second)
        #expect(await catalog.listing.photos.map(\.name) == [second, first])
        // A retake moves the photo aside: it leaves the listing, and the caller can drop its thumbnail.
        try #require(mkdir("\(folder)/discarded", 0o755) == 0)
        try #require(rename("\(folder)/\(second)", "\(folder)/discarded/\(second)") == 0)
        #expect(try await catalog.refresh() == [second])
        #expect(await catalog.listing.photo(named: second) == nil)
        #expect(await catalog.subscriberCount == 1)
    }

    @Test func aThumbnailIsMadeOnceUprightAndSmallAndRemovedWithItsPhoto() async throws {
        let photos = temporaryDirectory()
        let cache = temporaryDirectory() + "/thumbnails"
        let name = try Self.save(1, in: photos)
        let store = try ThumbnailStore(directory: cache, photos: photos, longEdge: 200)
        let path = try await store.thumbnail(for: name)
        #expect(path == "\(cache)/\(name)")
        let bytes = try #require(readFile(path))
        let info = try JPEGInspector.inspect(bytes)
        #expect((info.width, info.height) == (200, 150))
        // Asked again: the same file, not made again.
        var before = stat()
        stat(path, &before)
        #expect(try await store.thumbnail(for: name) == path)
        var after = stat()
        stat(path, &after)
        #expect(before.st_ino == after.st_ino)
        store.remove([name])
        // The removal runs on the store's queue, after everything queued before it.
        _ = try? await store.thumbnail(for: "HeyLook_undated_000099.jpg")
        #expect(access(path, F_OK) != 0)
    }

    @Test func aDamagedPhotoIsAnErrorForItsThumbnailOnly() async throws {
        let photos = temporaryDirectory()
        let name = PhotoName(dateTime: nil, sequence: 1).fileName
        try writeBytes(Array("not a jpeg".utf8), to: "\(photos)/\(name)")
        let store = try ThumbnailStore(directory: temporaryDirectory(), photos: photos)
        await #expect(throws: (any Error).self) { try await store.thumbnail(for: name) }
        #expect(access("\(store.directory)/\(name)", F_OK) != 0, "no thumbnail left behind")
        #expect(access("\(store.directory)/.\(name).partial", F_OK) != 0)
        // In the background it is tried once, then left alone (not at every change of the folder).
        store.prepare([name])
        _ = try? await store.thumbnail(for: "HeyLook_undated_000099.jpg")  // queued after: the preparing has run
        #expect(store.failures == [name])
        store.remove([name])
        _ = try? await store.thumbnail(for: "HeyLook_undated_000099.jpg")
        #expect(store.failures.isEmpty)
    }

    private func writeBytes(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }
}
