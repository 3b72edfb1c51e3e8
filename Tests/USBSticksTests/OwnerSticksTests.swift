// OwnerSticksTests: only the owner's sticks get photos and count for the cleanup; a stick is made the owner's once.
import BoothCore
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@testable import PhotoStore
@testable import USBSticks

@Suite(.timeLimit(.minutes(3))) struct OwnerSticksTests {
    /// Export options for `stick` that give photos only to the owner's sticks recorded in `owners`.
    func ownerOptions(for stick: String, _ owners: OwnerSticks) -> ExportOptions {
        var options = StoreFixtures.options(for: stick)
        options.owners = owners
        return options
    }

    @Test func theOwnersSticksAreKeptInAFileAndReadBack() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/\(OwnerSticks.fileName)"
        let owners = OwnerSticks(directory: directory)
        #expect(owners.all.isEmpty)
        try owners.add("stick-1")
        try owners.add("stick-2")
        try owners.add("stick-1")
        #expect(PhotoStore.readSmallFile(path) == "stick-1\nstick-2\n")
        let reopened = OwnerSticks(directory: directory)
        #expect(reopened.all == ["stick-1", "stick-2"] && reopened.contains("stick-2") && !reopened.contains("x"))
        #expect(throws: SystemError.self) { try owners.add("not an id/") }
        #expect(OwnerSticks(directory: directory).all == ["stick-1", "stick-2"])
    }

    /// Fails with the owner check removed from `StickExporter`: the stranger's stick gets every photo.
    @Test func aStickThatIsNotTheOwnersGetsNothingAndIsLeftAsItWas() throws {
        let store = try StoreFixtures.store(photos: 3)
        let owners = OwnerSticks(directory: temporaryDirectory())
        let stranger = temporaryDirectory()
        let exporter = StickExporter(store: store, options: ownerOptions(for: stranger, owners))
        let error = try #require(throws: ExportError.self) { try exporter.export(to: stranger) }
        #expect(error.isUnknownStick && !error.unmounted)
        #expect(error.description.contains("not one of this booth's own"))
        #expect(error.description.contains("hold the knob's switch"))
        #expect(StoreFixtures.snapshot(stranger).isEmpty, "nothing may be written to a stranger's stick")
        #expect(store.records().allSatisfy { $0.exportedTo.isEmpty })

        // A stick another booth (or a booth with export.sticks = "any") exported to carries an id this booth
        // never made its own: refused too, its manifest untouched.
        let other = temporaryDirectory()
        _ = try StickExporter(
            store: try StoreFixtures.store(photos: 1, seed: 7), options: StoreFixtures.options(for: other)
        )
        .export(to: other)
        let before = StoreFixtures.snapshot(other)
        let again = try #require(throws: ExportError.self) {
            try StickExporter(store: store, options: ownerOptions(for: other, owners)).export(to: other)
        }
        #expect(again.isUnknownStick)
        #expect(StoreFixtures.snapshot(other) == before)
    }

    @Test func aClaimedStickCarriesItsIdAndGetsThePhotosFromThenOn() throws {
        let store = try StoreFixtures.store(photos: 3)
        let ownersFolder = temporaryDirectory()
        let stick = temporaryDirectory()
        let exporter = StickExporter(
            store: store, options: ownerOptions(for: stick, OwnerSticks(directory: ownersFolder)))
        // `started` (what the booth reports as the claim done and the export started) comes once the id is recorded.
        var ownersAtStart: Set<String>?
        let claimed = try exporter.export(
            to: stick, claim: true, started: { ownersAtStart = OwnerSticks(directory: ownersFolder).all })
        #expect(ownersAtStart == [claimed.stickID])
        #expect(claimed.copied == 3)
        #expect(OwnerSticks(directory: ownersFolder).all == [claimed.stickID])
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.stickID == claimed.stickID)

        // Next insert, after a restart (the file read again): exported without a claim.
        _ = try store.save(StoreFixtures.photo(42), takenAt: nil)
        let later = StickExporter(store: store, options: ownerOptions(for: stick, OwnerSticks(directory: ownersFolder)))
        let next = try later.export(to: stick)
        #expect(next.copied == 1 && next.alreadyThere == 3 && next.stickID == claimed.stickID)
    }

    /// Fails with `countingOnly` ignored: the guest's copy frees the photo only it holds.
    @Test func onlyCopiesOnTheOwnersSticksCountForTheCleanup() throws {
        let store = try StoreFixtures.store(photos: 2)
        let records = store.records().sorted { $0.name < $1.name }
        let names = records.map(\.name)
        try store.markExported([(names[0], try #require(records[0].checksum))], to: "owner-stick")
        try store.markExported([(names[1], try #require(records[1].checksum))], to: "guest-stick")
        let removed = try store.removeExportedPhotos(untilFree: Int64.max, countingOnly: ["owner-stick"])
        #expect(removed == [names[0]])
        #expect(try store.keptPhotos() == [names[1]])
        // Every stick counts when no owner's list is given (export.sticks = "any").
        #expect(try store.removeExportedPhotos(untilFree: Int64.max) == [names[1]])
    }
}
