// PhotoStoreTests: the index (rebuilt when missing or damaged), cleanup rules, saves under faults.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import Checksum
import Glibc
import PhotoModel
import Testing
import USBSticks

@testable import PhotoStore

@Suite struct PhotoStoreTests {
    @Test func aStoreClonedToAnotherMachineGetsANewBoothID() throws {
        let directory = temporaryDirectory()
        let first = try PhotoStore(directory: directory, reserve: 0, machine: "serial:1111")
        #expect(first.replacedBoothID == nil)
        let again = try PhotoStore(directory: directory, reserve: 0, machine: "serial:1111")
        #expect(again.boothID == first.boothID && again.replacedBoothID == nil)
        // The same card in another Pi: a new id, the old one reported, the file names the new machine.
        let clone = try PhotoStore(directory: directory, reserve: 0, machine: "serial:2222")
        #expect(clone.boothID != first.boothID)
        #expect(clone.replacedBoothID == first.boothID)
        let text = try #require(PhotoStore.readSmallFile("\(directory)/\(PhotoStore.boothIDName)"))
        #expect(text == "\(clone.boothID)\nmachine serial:2222\n")
        let reopened = try PhotoStore(directory: directory, reserve: 0, machine: "serial:2222")
        #expect(reopened.boothID == clone.boothID && reopened.replacedBoothID == nil)
    }

    @Test func storesOpenedTogetherOnANewFolderAgreeOnOneBoothID() async throws {
        // The booth and `booth export` can start together on a folder that has no id yet: each must
        // open the store, and both must use the id the file ends up holding.
        for _ in 0..<10 {
            let directory = temporaryDirectory()
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await onOwnThread {
                            try PhotoStore(directory: directory, reserve: 0, machine: "serial:1111").boothID
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let stored = try #require(PhotoStore.readSmallFile("\(directory)/\(PhotoStore.boothIDName)"))
            #expect(Set(ids) == [try #require(BoothIdentity.parse(stored)).id])
            #expect(try PhotoStore.fileNames(in: directory).allSatisfy { !$0.hasSuffix(".partial") })
        }
    }

    @Test func aBoothIDFromAnOlderVersionIsKept() throws {
        let directory = temporaryDirectory()
        try DurableFile().write(
            Array("0123456789abcdef\n".utf8), directory: directory, name: PhotoStore.boothIDName, temporaryName: ".x",
            replacing: true)
        let store = try PhotoStore(directory: directory, reserve: 0, machine: "id:abc")
        #expect(store.boothID == "0123456789abcdef" && store.replacedBoothID == nil)
        #expect(
            PhotoStore.readSmallFile("\(directory)/\(PhotoStore.boothIDName)") == "0123456789abcdef\nmachine id:abc\n")
    }

    @Test func theIndexIsRebuiltWhenMissingOrDamaged() throws {
        let store = try StoreFixtures.store(photos: 3)
        let id = store.boothID
        let first = try #require(store.records().first)
        try store.markExported([(first.name, try #require(first.checksum))], to: "stick-1")
        #expect(store.records().first?.exportedTo == ["stick-1"])
        let indexPath = "\(store.directory)/\(PhotoStore.indexName)"
        // Damaged: rebuilt from the files (export records lost: cleanup only gets more careful).
        let text = PhotoStore.readSmallFile(indexPath)!
        try DurableFile().write(
            Array(text.utf8.prefix(40)), directory: store.directory, name: PhotoStore.indexName, temporaryName: ".x",
            replacing: true)
        let damaged = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(damaged.indexWasRebuilt)
        #expect(damaged.boothID == id)
        #expect(damaged.records().map(\.name) == (try store.keptPhotos()))
        #expect(damaged.records().allSatisfy { $0.exportedTo.isEmpty && $0.state == .kept })
        // Missing: the same, and the file comes back.
        unlink(indexPath)
        let missing = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(missing.indexWasRebuilt && missing.records().count == 3)
        #expect(PhotoIndex.decode(PhotoStore.readSmallFile(indexPath) ?? "") != nil)
        #expect(try PhotoStore.inspect(directory: store.directory) == missing.records())
    }

    /// A saved photo's index line, with the CRC-32 it was saved with, is on disk when `save` returns, and so is a
    /// retake's new state: a store opened after that (as after a power cut, with nothing else written) has them
    /// as they were and corrects nothing. Mutation: the index written only at start and at exports (as it was)
    /// gives entries with no CRC-32, each "corrected".
    @Test func aSaveAndARetakeAreInTheIndexOnDiskWhenTheyReturn() throws {
        let directory = temporaryDirectory()
        let store = try PhotoStore(directory: directory, reserve: 0)
        let kept = try store.save(StoreFixtures.photo(1), takenAt: nil)
        let justSaved = try PhotoStore(directory: directory, reserve: 0)
        #expect(justSaved.indexEntriesCorrected == 0 && justSaved.records() == store.records())
        let retake = try store.save(StoreFixtures.photo(2), takenAt: nil)
        try store.discard(retake)
        let before = store.records()
        let after = try PhotoStore(directory: directory, reserve: 0)
        #expect(!after.indexWasRebuilt && after.indexEntriesCorrected == 0)
        #expect(after.records() == before)
        let first = try #require(after.records().first { kept.hasSuffix($0.name) })
        #expect(first.checksum == CRC32.checksum(StoreFixtures.photo(1)) && first.state == .kept)
        #expect(after.records().contains { retake.hasSuffix($0.name) && $0.state == .discarded })
    }

    /// An undated photo's moment is in its index line and survives a restart; a dated photo records none.
    @Test func anUndatedPhotosMomentIsKeptInTheIndex() throws {
        let directory = temporaryDirectory()
        let store = try PhotoStore(directory: directory, reserve: 0)
        let moment = try #require(BootInstant(boot: String(repeating: "7", count: 32), instant: .seconds(42)))
        let undated = try store.save(StoreFixtures.photo(1), takenAt: nil, moment: moment)
        let dated = try store.save(
            StoreFixtures.photo(2), takenAt: .init(year: 2026, month: 11, day: 27, hour: 1, minute: 2, second: 3),
            moment: moment)
        let reopened = try PhotoStore(directory: directory, reserve: 0)
        #expect(reopened.records().first { undated.hasSuffix("/\($0.name)") }?.taken == moment)
        let datedEntry = try #require(reopened.records().first { dated.hasSuffix("/\($0.name)") })
        #expect(datedEntry.taken == nil)
        // A phone's mark of the same boot, 58 s after the photo: its date is written to the index, once.
        let at = try #require(BootInstant(boot: String(repeating: "7", count: 32), instant: .seconds(100)))
        #expect(try reopened.date(by: ClockMark(setTo: 1_795_780_800, was: 0, phone: "::1", at: at)) == 1)
        #expect(try reopened.date(by: ClockMark(setTo: 1_795_780_800, was: 0, phone: "::1", at: at)) == 0)
        let again = try PhotoStore(directory: directory, reserve: 0)
        #expect(again.records().first { undated.hasSuffix("/\($0.name)") }?.dated == 1_795_780_742)
    }

    /// An index that agrees with the photos is taken as it is (nothing corrected: what the rig's
    /// `system-power-off` asks of the journal after a power cut); one that lost a photo's line, or lists a photo
    /// deleted by hand, is corrected and says how many entries it corrected; a missing one is "rebuilt", not
    /// "corrected".
    @Test func theStoreSaysHowManyIndexEntriesItCorrected() throws {
        let store = try StoreFixtures.store(photos: 3)
        let indexPath = "\(store.directory)/\(PhotoStore.indexName)"
        let agreed = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(!agreed.indexWasRebuilt && agreed.indexEntriesCorrected == 0)
        // One photo's line lost, another photo deleted by hand: 2 entries corrected.
        let records = store.records()
        let index = PhotoIndex(Array(records.dropFirst()))
        try DurableFile().write(
            Array(index.encode().utf8), directory: store.directory, name: PhotoStore.indexName, temporaryName: ".x",
            replacing: true)
        try #require(unlink("\(store.directory)/\(records[1].name)") == 0)
        let corrected = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(!corrected.indexWasRebuilt && corrected.indexEntriesCorrected == 2)
        #expect(corrected.records().map(\.name) == [records[0].name, records[2].name])
        unlink(indexPath)
        let rebuilt = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(rebuilt.indexWasRebuilt && rebuilt.indexEntriesCorrected == 0)
    }

    @Test func onlyTheBoothsOwnStartRemovesTempFiles() throws {
        let store = try StoreFixtures.store(photos: 1)
        // What the running booth has while it saves a photo: `booth export` and `booth doctor` open the
        // store beside it and must leave it alone.
        let temp = "\(store.directory)/.HeyLook_2026-01-01_00-00-00_000002.jpg.partial"
        try DurableFile().write(
            [1, 2, 3], directory: store.directory, name: String(temp.dropFirst(store.directory.count + 1)),
            temporaryName: ".t")
        _ = try PhotoStore(directory: store.directory, reserve: 0, removingLeftovers: false)
        #expect(access(temp, F_OK) == 0)
        _ = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(access(temp, F_OK) != 0)
    }

    @Test func theIndexFollowsDiscardsAndFilesAddedOrRemovedBehindItsBack() throws {
        let store = try StoreFixtures.store(photos: 3)
        let names = try store.keptPhotos()
        try store.discard("\(store.directory)/\(names[1])")
        #expect(store.records().first { $0.name == names[1] }?.state == .discarded)
        unlink("\(store.directory)/\(names[2])")
        let reopened = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(reopened.records().map(\.name) == [names[0], names[1]])
        #expect(reopened.records().map(\.state) == [.kept, .discarded])
    }

    /// `booth export` by hand beside the running booth: two stores on one folder, each recording an
    /// export the other does not know; neither write loses the other's record.
    @Test func twoWritersOfOneIndexKeepEachOthersExportRecords() throws {
        let booth = try StoreFixtures.store(photos: 2)
        let byHand = try PhotoStore(directory: booth.directory, reserve: 0, removingLeftovers: false)
        let names = try booth.keptPhotos()
        let sums = booth.records().map { $0.checksum ?? 0 }
        try byHand.markExported([(names[0], sums[0])], to: "stick-hand")
        try booth.markExported([(names[1], sums[1])], to: "stick-booth")
        let onDisk = try PhotoStore.inspect(directory: booth.directory)
        #expect(onDisk.map(\.exportedTo) == [["stick-hand"], ["stick-booth"]])
        try byHand.markExported([(names[1], sums[1])], to: "stick-hand")
        #expect(
            try PhotoStore.inspect(directory: booth.directory).map(\.exportedTo) == [
                ["stick-hand"], ["stick-booth", "stick-hand"],
            ])
    }

    @Test func cleanupOnlyDeletesExportedPhotos() throws {
        let store = try StoreFixtures.store(photos: 4)
        let names = try store.keptPhotos()
        try store.discard("\(store.directory)/\(names[0])")
        let checksums = Dictionary(uniqueKeysWithValues: store.records().map { ($0.name, $0.checksum ?? 0) })
        try store.markExported([(names[2], checksums[names[2]]!), (names[0], checksums[names[0]]!)], to: "stick-1")
        // Asking for more room than exists removes every exported kept photo, and nothing else.
        let removed = try store.removeExportedPhotos(untilFree: Int64.max)
        #expect(removed == [names[2]])
        #expect(try store.keptPhotos() == [names[1], names[3]])
        #expect(try PhotoStore.fileNames(in: store.discardedDirectory) == [names[0]])
        #expect(try store.removeExportedPhotos(untilFree: 0).isEmpty)
    }

    /// A photo whose bytes changed since it was saved (bit rot on the card, an edit of the same size)
    /// is copied as it is now, but that copy is not the photo the booth took: it is never marked
    /// exported, so cleanup never deletes it.
    @Test func cleanupNeverDeletesAPhotoWhoseCopyDoesNotMatchTheSavedPhoto() throws {
        let store = try StoreFixtures.store(photos: 2)
        let names = try store.keptPhotos()
        let damaged = "\(store.directory)/\(names[0])"
        let fd = open(damaged, O_RDWR | O_CLOEXEC)
        var byte: UInt8 = 0
        #expect(pread(fd, &byte, 1, 100) == 1)
        byte ^= 0xFF
        #expect(pwrite(fd, &byte, 1, 100) == 1)
        close(fd)
        let stick = temporaryDirectory()
        _ = try? StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(store.records().first { $0.name == names[0] }?.exportedTo.isEmpty == true)
        #expect(try store.removeExportedPhotos(untilFree: Int64.max) == [names[1]])
        #expect(readFile(damaged) != nil)
    }

    /// A file named with the largest sequence an Int holds (crafted, or copied in by hand) is not one of
    /// ours: saves neither trap on the next `+ 1` nor touch that file, and a reopened store still saves.
    @Test func aFileWithAHugeSequenceNeitherStopsNorSuffersSaves() throws {
        let directory = temporaryDirectory()
        let crafted = "\(directory)/HeyLook_2026-01-01_00-00-00_9223372036854775807.jpg"
        try DurableFile().write(
            [9, 9, 9], directory: directory, name: String(crafted.split(separator: "/").last!), temporaryName: ".t")
        let when = PhotoName.DateTime(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        let store = try PhotoStore(directory: directory, reserve: 0)
        let first = try store.save(StoreFixtures.photo(1), takenAt: when)
        let second = try store.save(StoreFixtures.photo(2), takenAt: when)
        let third = try PhotoStore(directory: directory, reserve: 0).save(StoreFixtures.photo(3), takenAt: when)
        #expect(Set([first, second, third, crafted]).count == 4)
        #expect(readFile(crafted) == [9, 9, 9])
        #expect(readFile(third) == StoreFixtures.photo(3))
    }

    /// Past a file named with the store's largest sequence (crafted, or copied in), saves take the lowest
    /// free number (kept and discarded photos both count), so an undated booth, whose names differ by
    /// number alone, keeps saving; nothing is overwritten, and a reopened store goes on from there.
    @Test func pastTheLargestSequenceSavesTakeTheLowestFreeNumber() throws {
        let directory = temporaryDirectory()
        let top = "HeyLook_undated_999999999.jpg"
        try DurableFile().write([9, 9, 9], directory: directory, name: top, temporaryName: ".t")
        try DurableFile().write([1], directory: directory, name: "HeyLook_undated_000001.jpg", temporaryName: ".t")
        #expect(mkdir("\(directory)/discarded", 0o755) == 0)
        try DurableFile().write(
            [2], directory: "\(directory)/discarded", name: "HeyLook_2026-01-01_00-00-00_000002.jpg",
            temporaryName: ".t")
        let store = try PhotoStore(directory: directory, reserve: 0)
        let saved = try (1...3).map { try store.save(StoreFixtures.photo($0), takenAt: nil) }
        #expect(
            saved.map { String($0.split(separator: "/").last!) } == [
                "HeyLook_undated_000003.jpg", "HeyLook_undated_000004.jpg", "HeyLook_undated_000005.jpg",
            ])
        for (i, path) in saved.enumerated() { #expect(readFile(path) == StoreFixtures.photo(i + 1)) }
        #expect(readFile("\(directory)/\(top)") == [9, 9, 9])
        #expect(readFile("\(directory)/HeyLook_undated_000001.jpg") == [1])
        let reopened = try PhotoStore(directory: directory, reserve: 0).save(StoreFixtures.photo(4), takenAt: nil)
        #expect(reopened.hasSuffix("/HeyLook_undated_000006.jpg"))
    }

    /// Fail each call of opening a store in turn (every kind of call it makes: listing, stat, reading the
    /// index, locking and writing it ...) with EIO: each goes through the seam, the open fails with that
    /// error or works, no photo changes or goes, and the next open sees every photo.
    @Test(arguments: [
        "open", "write", "fsync", "rename", "read", "mkdir", "close", "unlink", "stat", "list", "flock",
    ])
    func openingAStoreFailingAtAnyStepLosesNoPhoto(operation: String) throws {
        let directory = temporaryDirectory()
        _ = try StoreFixtures.store(photos: 3, directory: directory)
        #expect(unlink("\(directory)/\(PhotoStore.indexName)") == 0)  // rebuilt, and written, at open
        let photos = StoreFixtures.snapshot(directory).filter { PhotoName(fileName: $0.key) != nil }
        var n = 1
        while true {
            let faults = StickFaults(failing: operation, at: n, with: EIO)
            do {
                let store = try PhotoStore(directory: directory, reserve: 0, operations: faults)
                #expect(Set(store.records().map(\.name)).isSubset(of: Set(photos.keys)), "\(operation) #\(n)")
            } catch {
                #expect(error.errno == EIO, "\(operation) #\(n): \(error)")
            }
            #expect(
                StoreFixtures.snapshot(directory).filter { PhotoName(fileName: $0.key) != nil } == photos,
                "\(operation) #\(n)")
            #expect(try PhotoStore(directory: directory, reserve: 0).records().count == 3, "\(operation) #\(n)")
            if !faults.fired { break }
            n += 1
        }
        #expect(n > 1, "opening a store makes no \(operation) call through the seam")
    }

    /// Fail every write, fsync, rename, open and close of a save with EIO and ENOSPC: the store holds
    /// the photo complete or not at all, and nothing else changes but the index. A failure of the index write
    /// alone (after the photo is complete) keeps the photo, says so (`indexFailure`), and leaves an index the
    /// next start reads whole.
    @Test(arguments: ["open", "write", "fsync", "close", "rename"], [EIO, ENOSPC])
    func aSaveFailingAtAnyStepChangesNothing(operation: String, error: Int32) throws {
        let directory = temporaryDirectory()
        _ = try StoreFixtures.store(photos: 2, directory: directory)
        _ = try PhotoStore(directory: directory, reserve: 0)  // records the saves in the index
        let photo = StoreFixtures.photo(7)
        var n = 1
        while true {
            let before = StoreFixtures.snapshot(directory)
            let faults = StickFaults(failing: operation, at: n, with: error)
            faults.disarm()  // the opening has its own test: this one fails the save
            let store = try PhotoStore(directory: directory, reserve: 0, operations: faults)
            faults.arm()
            let when = PhotoName.DateTime(year: 2026, month: 11, day: 23, hour: 8, minute: 0, second: 0)
            do {
                let path = try store.save(photo, takenAt: when)
                #expect(readFile(path) == photo)
                var after = StoreFixtures.snapshot(directory)
                #expect(after.removeValue(forKey: String(path.split(separator: "/").last!)) == CRC32.checksum(photo))
                after[PhotoStore.indexName] = nil
                #expect(after == before.filter { $0.key != PhotoStore.indexName })
                let reopened = try PhotoStore(directory: directory, reserve: 0)
                #expect(!reopened.indexWasRebuilt, "\(operation) #\(n)")
                let saved = reopened.records().first { path.hasSuffix($0.name) }
                if store.indexFailure == nil {
                    #expect(saved?.checksum == CRC32.checksum(photo), "\(operation) #\(n)")
                    break
                }
                // The index may hold the new line or not (a failed flush of its folder after the rename), never
                // a wrong one.
                #expect(faults.fired && saved != nil, "\(operation) #\(n)")
                #expect(saved?.checksum == nil || saved?.checksum == CRC32.checksum(photo), "\(operation) #\(n)")
                try #require(unlink(path) == 0)
                _ = try PhotoStore(directory: directory, reserve: 0)
            } catch {
                #expect(faults.fired)
                #expect(StoreFixtures.snapshot(directory) == before, "\(operation) #\(n)")
            }
            n += 1
        }
        #expect(n > 1)
    }
}

/// Numbering, leftovers and the reserve of a store on a real folder.
@Suite struct PhotoStoreNumberingTests {
    static let sample = PhotoName.DateTime(year: 2026, month: 11, day: 22, hour: 10, minute: 0, second: 0)

    @Test func theStoreNumbersPhotosOnAndCleansLeftovers() throws {
        let dir = temporaryDirectory()
        let dt = Self.sample
        let store = try PhotoStore(directory: dir, reserve: 0)
        let first = try store.save([0xFF, 0xD8, 1], takenAt: dt)
        let second = try store.save([0xFF, 0xD8, 2], takenAt: dt)
        #expect(first.hasSuffix("_000001.jpg"))
        #expect(second.hasSuffix("_000002.jpg"))
        // A crash left a temp file: it is removed at start, and numbering continues.
        _ = open("\(dir)/.HeyLook_2026-01-01_00-00-00_000003.jpg.partial", O_CREAT | O_WRONLY, 0o644)
        try store.discard(second)
        let reopened = try PhotoStore(directory: dir, reserve: 0)
        #expect(try reopened.keptPhotos().count == 1)
        #expect(try PhotoStore.fileNames(in: dir).filter { $0.hasSuffix(".partial") }.isEmpty)
        #expect(try reopened.save([0xFF, 0xD8, 3], takenAt: dt).hasSuffix("_000003.jpg"))
        #expect(try PhotoStore.fileNames(in: "\(dir)/discarded").count == 1)
    }

    @Test func aSaveBelowTheReserveIsRefusedAndLeavesNothing() throws {
        let dir = temporaryDirectory()
        let store = try PhotoStore(directory: dir, reserve: Int64.max / 2)
        #expect(throws: SystemError.self) { try store.save([0xFF, 0xD8], takenAt: Self.sample) }
        #expect(try store.keptPhotos().isEmpty)
        #expect(!store.hasRoom())
    }
}

/// A file of the same shot kept beside a photo (a camera's RAW): saved before it under its name, no photo of its own
/// (no index line), moved aside with it on a retake.
@Suite struct PhotoStoreCompanionTests {
    static let sample = PhotoStoreNumberingTests.sample
    static let raw: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 7, 7]

    @Test func aRAWIsKeptBesideItsPhotoAndGoesAsideWithIt() throws {
        let dir = temporaryDirectory()
        let store = try PhotoStore(directory: dir, reserve: 0)
        let path = try store.save(
            [0xFF, 0xD8, 1], takenAt: Self.sample,
            companions: [PhotoStore.Companion(fileExtension: "cr2", bytes: Self.raw)])
        let name = String(path.split(separator: "/").last!)
        let rawName = String(name.dropLast(3)) + "cr2"
        #expect(readFile("\(dir)/\(rawName)") == Self.raw)
        // Not a photo: the index, the kept photos and the store reopened know the JPEG alone.
        #expect(store.records().map(\.name) == [name])
        #expect(try store.keptPhotos() == [name])
        let reopened = try PhotoStore(directory: dir, reserve: 0)
        #expect(reopened.records().map(\.name) == [name])
        #expect(!reopened.indexWasRebuilt && reopened.indexEntriesCorrected == 0)
        // A retake moves both aside.
        try reopened.discard(path)
        #expect(readFile("\(dir)/discarded/\(rawName)") == Self.raw)
        #expect(readFile("\(dir)/\(rawName)") == nil)
        #expect(try reopened.save([0xFF, 0xD8, 2], takenAt: Self.sample).hasSuffix("_000002.jpg"))
    }

    @Test func aRAWLeftByASaveCutShortKeepsItsNumberAndIsLeftAlone() throws {
        let dir = temporaryDirectory()
        _ = try PhotoStore(directory: dir, reserve: 0)
        let orphan = "\(dir)/HeyLook_undated_000001.nef"
        let fd = open(orphan, O_CREAT | O_WRONLY, 0o644)
        #expect(Self.raw.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == Self.raw.count)
        close(fd)
        let store = try PhotoStore(directory: dir, reserve: 0)
        #expect(try store.save([0xFF, 0xD8, 1], takenAt: nil).hasSuffix("HeyLook_undated_000002.jpg"))
        #expect(readFile(orphan) == Self.raw)
        #expect(store.records().count == 1)
    }

    @Test func anExtensionThatCannotNameACompanionIsRefusedAndLeavesNothing() throws {
        let dir = temporaryDirectory()
        let store = try PhotoStore(directory: dir, reserve: 0)
        let before = try PhotoStore.fileNames(in: dir).sorted()
        for bad in ["jpg", "", "CR2", "r/w", "toolong"] {
            #expect(throws: SystemError.self, "\(bad)") {
                try store.save(
                    [0xFF, 0xD8], takenAt: Self.sample,
                    companions: [
                        PhotoStore.Companion(fileExtension: "xmp", bytes: [1]),
                        PhotoStore.Companion(fileExtension: bad, bytes: [2]),
                    ])
            }
            #expect(try PhotoStore.fileNames(in: dir).sorted() == before, "\(bad)")
        }
        #expect(store.records().isEmpty)
    }

    @Test func theReserveCountsTheRAWToo() throws {
        let dir = temporaryDirectory()
        let free = try #require(PhotoStore.freeBytes(at: dir))
        // Room for the JPEG above the reserve, not for the JPEG and its RAW.
        let store = try PhotoStore(directory: dir, reserve: free - 4096)
        let big = PhotoStore.Companion(fileExtension: "nef", bytes: [UInt8](repeating: 1, count: 1 << 20))
        #expect(throws: SystemError.self) { try store.save([0xFF, 0xD8], takenAt: Self.sample, companions: [big]) }
        #expect(try PhotoStore.fileNames(in: dir).allSatisfy { !$0.hasPrefix("HeyLook") })
    }

    /// Every open, write, fsync, close and rename of a save with a RAW failed in turn: the JPEG and its RAW are both
    /// there, or neither is.
    @Test(arguments: ["open", "write", "fsync", "close", "rename"])
    func aSaveWithARAWFailingAtAnyStepLeavesBothOrNeither(operation: String) throws {
        let directory = temporaryDirectory()
        _ = try PhotoStore(directory: directory, reserve: 0)
        var n = 1
        while true {
            let before = StoreFixtures.snapshot(directory).filter { $0.key != PhotoStore.indexName }
            let faults = StickFaults(failing: operation, at: n, with: EIO)
            faults.disarm()
            let store = try PhotoStore(directory: directory, reserve: 0, operations: faults)
            faults.arm()
            do {
                let path = try store.save(
                    [0xFF, 0xD8, 9], takenAt: Self.sample,
                    companions: [PhotoStore.Companion(fileExtension: "cr2", bytes: Self.raw)])
                #expect(readFile(path) == [0xFF, 0xD8, 9])
                #expect(readFile(String(path.dropLast(3)) + "cr2") == Self.raw, "\(operation) #\(n)")
                break
            } catch {
                #expect(faults.fired)
                let after = StoreFixtures.snapshot(directory).filter { $0.key != PhotoStore.indexName }
                #expect(after == before, "\(operation) #\(n)")
            }
            n += 1
        }
        #expect(n > 1)
    }
}
