// SavePathDurabilityTests: every save path's calls, replayed through a DurabilityModel, keep what they acknowledge.
import BoothCore
import BoothSystem
import BoothTestSupport
import Glibc
import PhotoModel
import Testing
import USBSticks

@testable import PhotoStore

/// The order of the calls on every path that writes something the booth relies on, checked against
/// POSIX's promises alone: a final name is only given to fsynced content, and when the call returns
/// ("saved", "discarded", "exported") the name and the content survive a power cut. A reordering
/// (rename before fsync, a missing folder fsync) fails here without the rig; `Tests/Rig` power-cut
/// scenarios replay the real disk's writes for the same promise.
@Suite struct SavePathDurabilityTests {
    /// The model itself: a rename of unsynced content is flagged, and nothing is durable before the
    /// folder's fsync. (Without this, the checks below could pass on a model that sees nothing.)
    @Test func theModelFlagsARenameBeforeFsyncAndAnUnsyncedFolder() {
        var careless = DurabilityModel()
        careless.opened("/d/.a.partial", creating: true)
        careless.wrote("/d/.a.partial")
        careless.renamed("/d/.a.partial", to: "/d/a")
        #expect(careless.violations == ["/d/a: renamed from .a.partial before its content was fsynced"])
        #expect(careless.whyNotDurable("/d/a") == "/d/a: content written since its last fsync")

        var careful = DurabilityModel()
        careful.opened("/d/.a.partial", creating: true)
        careful.wrote("/d/.a.partial")
        careful.synced("/d/.a.partial")
        careful.renamed("/d/.a.partial", to: "/d/a")
        #expect(careful.violations.isEmpty)
        #expect(careful.whyNotDurable("/d/a") == "/d/a: its name is not durable (no fsync of its folder since)")
        careful.synced("/d")
        #expect(careful.whyNotDurable("/d/a") == nil)
        #expect(careful.whyNotGone("/d/.a.partial") == nil)
        careful.wrote("/d/a")
        #expect(careful.whyNotDurable("/d/a") == "/d/a: content written since its last fsync")
    }

    /// Opening a store writes its id and index; a save, a retake's discard and the index's export
    /// records are each durable when the call returns.
    @Test func theStoresSavesDiscardsAndIndexAreDurableWhenAcknowledged() throws {
        let ops = RecordingFileOperations()
        let directory = temporaryDirectory()
        let store = try PhotoStore(directory: directory, reserve: 0, operations: ops)
        #expect(ops.model.whyNotDurable("\(directory)/\(PhotoStore.boothIDName)") == nil)
        #expect(ops.model.whyNotDurable("\(directory)/\(PhotoStore.indexName)") == nil)

        let first = try store.save(StoreFixtures.photo(1), takenAt: StoreFixtures.sampleDate)
        #expect(ops.model.whyNotDurable(first) == nil)
        let second = try store.save(StoreFixtures.photo(2), takenAt: StoreFixtures.sampleDate)
        #expect(ops.model.whyNotDurable(second) == nil)
        #expect(ops.calls.filter { $0.hasPrefix("rename") }.count == 2)

        try store.discard(second)
        let moved = "\(store.discardedDirectory)/\(second.split(separator: "/").last!)"
        #expect(ops.model.whyNotDurable(moved) == nil)
        #expect(ops.model.whyNotGone(second) == nil)

        try store.markExported([(String(first.split(separator: "/").last!), 7)], to: "stick-1")
        #expect(ops.model.whyNotDurable("\(directory)/\(PhotoStore.indexName)") == nil)
        #expect(ops.model.violations.isEmpty)
    }

    /// The knob's choices and every other small file written by path (`DurableFile.write(_:directory:...)`).
    @Test func aFileWrittenByPathIsDurableWhenWriteReturns() throws {
        let ops = RecordingFileOperations()
        let directory = temporaryDirectory()
        let file = DurableFile(operations: ops)
        try file.write(Array("delay = 1.0\n".utf8), directory: directory, name: "state.toml", temporaryName: ".s")
        #expect(ops.model.whyNotDurable("\(directory)/state.toml") == nil)
        try file.write(
            Array("delay = 1.5\n".utf8), directory: directory, name: "state.toml", temporaryName: ".s", replacing: true)
        #expect(ops.model.whyNotDurable("\(directory)/state.toml") == nil)
        #expect(ops.model.violations.isEmpty)
        #expect(readFile("\(directory)/state.toml") == Array("delay = 1.5\n".utf8))
    }

    /// An export: every folder it made, every photo copied to the stick and the manifest that lists
    /// them are durable when `export` returns, and so is the store's index that records the export.
    @Test func anExportIsDurableOnTheStickAndInTheIndexWhenItReturns() throws {
        let storeOps = RecordingFileOperations()
        let directory = temporaryDirectory()
        let store = try PhotoStore(directory: directory, reserve: 0, operations: storeOps)
        for i in 0..<5 {
            let day = PhotoName.DateTime(year: 2026, month: 11, day: 21 + i % 2, hour: 10, minute: i, second: 0)
            _ = try store.save(StoreFixtures.photo(i), takenAt: day)
        }
        let stick = temporaryDirectory()
        let stickOps = RecordingFileOperations()
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick, operations: stickOps))
            .export(to: stick)
        #expect(summary.copied == 5)
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.entries.count == 5)
        // The folders the export made: the export folder and one per day.
        #expect(stickOps.model.whyNotDurable("\(stick)/HeyLook") == nil)
        #expect(stickOps.model.whyNotDurable("\(stick)/HeyLook/2026-11-21") == nil)
        #expect(stickOps.model.whyNotDurable("\(stick)/HeyLook/2026-11-22") == nil)
        for entry in manifest.entries {
            #expect(stickOps.model.whyNotDurable("\(stick)/HeyLook/\(entry.path)") == nil)
        }
        #expect(stickOps.model.whyNotDurable("\(stick)/HeyLook/\(StickExporter.manifestName)") == nil)
        #expect(stickOps.model.violations.isEmpty)
        #expect(storeOps.model.whyNotDurable("\(directory)/\(PhotoStore.indexName)") == nil)
        #expect(storeOps.model.violations.isEmpty)
        #expect(store.records().allSatisfy { $0.exportedTo == [summary.stickID] })
    }
}
