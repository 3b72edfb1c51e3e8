// LayoutExportTests: print layouts kept in the store go to the stick's layouts/ folder, recorded in its manifest alone.
import BoothCore
import BoothSystem
import BoothTestSupport
import Checksum
import Glibc
import PhotoModel
import Testing

@testable import PhotoStore
@testable import USBSticks

@Suite(.timeLimit(.minutes(3))) struct LayoutExportTests {
    /// Keeps `bytes` as the `kind` layout of the store's `index`th kept photo; returns its name.
    @discardableResult
    func keepLayout(_ bytes: [UInt8], of store: PhotoStore, photo index: Int, kind: String) throws -> String {
        let photo = try #require(PhotoName(fileName: try store.keptPhotos()[index]))
        let name = LayoutName(photo: photo, kind: kind).fileName
        let folder = PhotoStore.layoutsDirectory(of: store.directory)
        try PhotoStore.makeDirectories(folder)
        try DurableFile().write(bytes, directory: folder, name: name, temporaryName: ".\(name).tmp")
        return name
    }

    @Test func layoutsGoToTheSticksLayoutsFolderOnceAndAreNoPhotosOfTheIndex() throws {
        let store = try StoreFixtures.store(photos: 3)
        let strip = try keepLayout(StoreFixtures.photo(40, size: 9_000), of: store, photo: 0, kind: "strip")
        let page = try keepLayout(StoreFixtures.photo(41, size: 7_000), of: store, photo: 2, kind: "photo")
        // Beside them: a temp file, a link and a stranger's file, none of them layouts.
        let folder = PhotoStore.layoutsDirectory(of: store.directory)
        try DurableFile().write([1, 2, 3], directory: folder, name: "notes.jpg", temporaryName: ".n")
        try DurableFile().write([4, 5], directory: folder, name: ".\(strip).tmp", temporaryName: ".m")
        #expect(symlink("\(store.directory)/\(try store.keptPhotos()[1])", "\(folder)/x-grid.jpg") == 0)
        #expect(try store.layouts().map(\.name) == [strip, page].sorted())

        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        var steps: [[Int]] = []
        let summary = try exporter.export(to: stick) { steps.append([$0, $1]) }
        #expect(summary.copied == 3 && summary.layouts == 2 && summary.skipped.isEmpty)
        #expect(steps.last == [5, 5])
        #expect(readFile("\(stick)/HeyLook/layouts/\(strip)") == StoreFixtures.photo(40, size: 9_000))
        #expect(readFile("\(stick)/HeyLook/layouts/\(page)") == StoreFixtures.photo(41, size: 7_000))
        let onStick = StoreFixtures.snapshot("\(stick)/HeyLook/layouts")
        #expect(Set(onStick.keys) == [strip, page])
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(
            Set(manifest.entries.filter { ExportPlan.isLayoutSource($0.source) }.map(\.path))
                == ["layouts/\(strip)", "layouts/\(page)"])
        // The index holds the photos alone, each recorded on the stick.
        #expect(store.records().map(\.name) == (try store.keptPhotos()))
        #expect(store.records().allSatisfy { $0.exportedTo == [summary.stickID] })

        // Once there, a layout is read back and not copied again.
        let again = try exporter.export(to: stick)
        #expect(
            again.copied == 0 && again.layouts == 0 && again.layoutsAlreadyThere == 2 && again.alreadyThere == 3
                && again.skipped.isEmpty)

        // A new layout follows at the next insert.
        let grid = try keepLayout(StoreFixtures.photo(42, size: 5_000), of: store, photo: 1, kind: "grid")
        let third = try exporter.export(to: stick)
        #expect(third.copied == 0 && third.layouts == 1 && third.layoutsAlreadyThere == 2)
        #expect(readFile("\(stick)/HeyLook/layouts/\(grid)") == StoreFixtures.photo(42, size: 5_000))
    }

    /// The manifest's claim on a layout is read back like a photo's: same-size junk under its name is left alone and
    /// the layout is copied beside it, under the booth's tag.
    @Test func aLayoutClaimedOverSameSizeJunkIsCopiedBesideIt() throws {
        let store = try StoreFixtures.store(photos: 1)
        let layout = StoreFixtures.photo(50, size: 6_000)
        let name = try keepLayout(layout, of: store, photo: 0, kind: "strip")
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        #expect(try exporter.export(to: stick).layouts == 1)
        let junk = [UInt8](repeating: 0x55, count: layout.count)
        #expect(unlink("\(stick)/HeyLook/layouts/\(name)") == 0)
        try DurableFile().write(junk, directory: "\(stick)/HeyLook/layouts", name: name, temporaryName: ".t")

        let again = try exporter.export(to: stick)
        #expect(again.layouts == 1 && again.copied == 0)
        let tagged = ExportPlan.alternativeName(name, booth: store.boothID, attempt: 1)
        #expect(readFile("\(stick)/HeyLook/layouts/\(tagged)").map(CRC32.checksum) == CRC32.checksum(layout))
        #expect(readFile("\(stick)/HeyLook/layouts/\(name)").map(CRC32.checksum) == CRC32.checksum(junk))
    }

    /// A layout whose first photo cleanup deleted (it was on a stick) goes with it; others stay.
    @Test func cleanupDeletesTheLayoutsNamedAfterAPhotoItDeletes() throws {
        let store = try StoreFixtures.store(photos: 2)
        let first = try keepLayout([1, 2, 3], of: store, photo: 0, kind: "strip")
        let firstPhoto = try keepLayout([4, 5, 6], of: store, photo: 0, kind: "photo")
        let second = try keepLayout([7, 8, 9], of: store, photo: 1, kind: "grid")
        let names = try store.keptPhotos()
        let checksum = try #require(store.records().first { $0.name == names[0] }?.checksum)
        try store.markExported([(names[0], checksum)], to: "stick-1")

        #expect(try store.removeExportedPhotos(untilFree: Int64.max) == [names[0]])
        #expect(try store.layouts().map(\.name) == [second])
        let folder = PhotoStore.layoutsDirectory(of: store.directory)
        #expect(readFile("\(folder)/\(first)") == nil && readFile("\(folder)/\(firstPhoto)") == nil)
    }
}
