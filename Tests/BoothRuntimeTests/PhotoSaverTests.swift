// PhotoSaverTests: the save worker's cleanup counts only copies on the owner's sticks.
import BoothTestSupport
import Glibc
import PhotoEncoding
import PhotoStore
import Testing
import USBSticks

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct PhotoSaverTests {
    /// With `booth.cleanup_exported` and no room left, the saver makes room only from photos on one of the owner's
    /// sticks: a photo copied only to a guest's stick stays, the one on the owner's goes. Without an owner's list
    /// (`export.sticks = "any"`) every stick's copy counts. Fails if the saver does not pass the owner's sticks to
    /// the cleanup (mutation: `countingOnly: nil` in `postStorage`: the guest's photo is deleted too), which the unit
    /// tests before this one passed.
    @Test func onlyCopiesOnTheOwnersSticksLetTheCleanupDeleteAPhoto() throws {
        let directory = temporaryDirectory()
        let saving = try PhotoStore(directory: directory, reserve: 0)
        for seed in [1, 2] as [UInt8] { _ = try saving.save([0xFF, 0xD8, seed, 0xFF, 0xD9], takenAt: nil) }
        let records = saving.records()
        try #require(records.count == 2)
        let (owners, guests) = (records[0], records[1])
        try saving.markExported([(owners.name, try #require(owners.checksum))], to: "owner-stick")
        try saving.markExported([(guests.name, try #require(guests.checksum))], to: "guest-stick")
        let sticks = OwnerSticks(directory: temporaryDirectory())
        try sticks.add("owner-stick")

        // What is kept once the saver measured the space of a store with no room (a reserve no disk has).
        func keptAfterCleanup(owners: OwnerSticks?) throws -> [String] {
            let full = try PhotoStore(directory: directory, reserve: Int64.max / 4)
            try #require(!full.hasRoom())
            let saver = try PhotoSaver(
                store: full, options: JPEGOptions(), orientation: 1, cleanupExported: true, owners: owners,
                loop: try EventLoop()
            ) { _ in }
            saver.checkStorage()
            let results = saver.finish()
            #expect(results.count == 1, "only the storage report, no error: \(results)")
            if case .storage(let hasRoom) = results.first {
                #expect(!hasRoom)
            } else {
                Issue.record("no storage report: \(results)")
            }
            return try full.keptPhotos()
        }

        #expect(try keptAfterCleanup(owners: sticks) == [guests.name], "only the owner's stick's copy counts")
        #expect(try keptAfterCleanup(owners: nil).isEmpty, "every stick's copy counts without an owner's list")
    }
}
