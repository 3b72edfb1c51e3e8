// StickExporterTests: copy + verify + manifest, resume, several booths, damaged manifests, links, faults.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import Checksum
import Glibc
import PhotoModel
import Testing

@testable import PhotoStore
@testable import USBSticks

@Suite(.timeLimit(.minutes(3))) struct StickExporterTests {
    /// The kept photos' bytes by file name.
    func photos(of store: PhotoStore) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for name in try store.keptPhotos() { result[name] = readFile("\(store.directory)/\(name)") }
        return result
    }

    /// The stick holds only complete photos of `store` under final names; the manifest, if readable,
    /// matches the files; no temp file is left. Returns the photos found (source name → stick path).
    @discardableResult
    func checkStick(_ stick: String, holdsOnlyCompletePhotosOf store: PhotoStore) throws -> [String: String] {
        let sources = try photos(of: store)
        var found: [String: String] = [:]
        let files = StoreFixtures.snapshot("\(stick)/HeyLook")
        for (path, checksum) in files where path != "manifest.txt" && path != StickExporter.lockName {
            let name = String(path.split(separator: "/").last!)
            #expect(!name.hasPrefix("."), "temp file left: \(path)")
            let source = sources.first { $0.key == name || name.hasPrefix(String($0.key.dropLast(4)) + "_") }
            #expect(source != nil, "unknown file \(path)")
            if let source {
                #expect(checksum == CRC32.checksum(source.value), "\(path) is not complete")
                found[source.key] = path
            }
        }
        if let text = PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt"),
            let manifest = ExportManifest.decode(text)
        {
            for entry in manifest.entries where entry.booth == store.boothID {
                #expect(files[entry.path] == entry.checksum, "manifest lists \(entry.path) but the file differs")
            }
        }
        return found
    }

    /// `checkStick`, with the files in `forged` (export-folder path → bytes) allowed beside the photos.
    @discardableResult
    func checkStick(
        _ stick: String, holdsOnlyCompletePhotosOfOrForged store: PhotoStore, forged: [String: [UInt8]]
    ) throws -> [String: String] {
        let sources = try photos(of: store)
        var found: [String: String] = [:]
        for (path, checksum) in StoreFixtures.snapshot("\(stick)/HeyLook")
        where path != "manifest.txt" && path != StickExporter.lockName && forged[path] == nil {
            let name = String(path.split(separator: "/").last!)
            let source = sources.first { name.hasPrefix(String($0.key.dropLast(4))) }
            #expect(source != nil && checksum == CRC32.checksum(source!.value), "\(path)")
            if let source, readFile("\(stick)/HeyLook/\(path)") == source.value { found[source.key] = path }
        }
        return found
    }

    @Test func exportCopiesVerifiesAndRecordsEveryKeptPhoto() throws {
        let store = try StoreFixtures.store(photos: 5)
        try store.discard("\(store.directory)/\(try store.keptPhotos()[0])")
        let stick = temporaryDirectory()
        var steps: [[Int]] = []
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick) {
            steps.append([$0, $1])
        }
        #expect(summary.copied == 4 && summary.alreadyThere == 0 && summary.skipped.isEmpty && !summary.unmounted)
        #expect(steps == [[0, 4], [1, 4], [2, 4], [3, 4], [4, 4]])
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        #expect(found.count == 4)
        #expect(found.values.allSatisfy { $0.hasPrefix("2026-11-2") })
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.stickID == summary.stickID)
        #expect(manifest.entries.count == 4 && manifest.entries.allSatisfy { $0.booth == store.boothID })
        let exported = store.records().filter { $0.exportedTo == [summary.stickID] }.map(\.name)
        #expect(Set(exported) == Set(found.keys))
        // The records survive a restart.
        let reopened = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(reopened.records() == store.records())
        #expect(!reopened.indexWasRebuilt)
    }

    /// The card `booth card` keeps goes to the stick with the photos, once; a new card replaces it; none, nothing.
    @Test func theJoinCardGoesToTheStickOnceAndANewOneReplacesIt() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let cards = temporaryDirectory()
        var options = StoreFixtures.options(for: stick)
        options.joinCard = "\(cards)/join-card.pdf"
        let exporter = StickExporter(store: store, options: options)
        let none = try exporter.export(to: stick)
        #expect(!none.joinCardCopied && readFile("\(stick)/HeyLook/join-card.pdf") == nil)

        let card = Array("%PDF-1.5 the first card".utf8)
        try DurableFile().write(card, directory: cards, name: "join-card.pdf", temporaryName: ".tmp")
        let first = try exporter.export(to: stick)
        #expect(first.joinCardCopied && first.copied == 0 && first.alreadyThere == 2)
        #expect(readFile("\(stick)/HeyLook/join-card.pdf") == card)
        #expect(!(try exporter.export(to: stick).joinCardCopied))

        let newer = Array("%PDF-1.5 a new code".utf8)
        try DurableFile().write(newer, directory: cards, name: "join-card.pdf", temporaryName: ".tmp", replacing: true)
        #expect(try exporter.export(to: stick).joinCardCopied)
        #expect(readFile("\(stick)/HeyLook/join-card.pdf") == newer)
        #expect(
            !StoreFixtures.snapshot("\(stick)/HeyLook").keys.contains {
                $0.hasPrefix(".") && $0 != StickExporter.lockName
            })
    }

    /// The stick's folders asked for before the run opened them (a step out of order) fail as the export's EBADF,
    /// naming the folder, and nothing is written: never a trap, never -1 handed to the kernel. Mutation: handing -1 on
    /// instead fails it (the kernel's EBADF names the manifest's file, and the room check passes without a word).
    @Test func aStickFolderAskedForBeforeItIsOpenIsEBADF() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        let run = ExportRun(
            store: store, options: StoreFixtures.options(for: stick), mountPoint: stick, device: nil, claim: false,
            shouldStop: { false })
        for step in ["manifest", "read", "room"] {
            #expect(Comment(rawValue: step)) {
                switch step {
                case "manifest": try run.recordNow()
                case "read": _ = try run.readManifest()
                default: try run.checkRoom(for: 1, path: "\(stick)/HeyLook/photo.jpg")
                }
            } throws: { error in
                guard let error = error as? ExportError, case .failed(let failure) = error.reason else { return false }
                return failure.code == .badFileDescriptor && failure.subject == "\(stick)/HeyLook"
            }
        }
        #expect(StoreFixtures.snapshot(stick).isEmpty)
        #expect(!run.abandon(stickRemoved: false, refused: false, stopped: false), "nothing opened, nothing unmounted")
    }

    /// A card over 4 MiB (not one `booth card` makes) is named as too large, with its path, and never copied; the photos
    /// before it are on the stick, whole. Mutation: reading the card without the limit copies it.
    @Test func aCardTooLargeIsNamedAndNotCopied() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let cards = temporaryDirectory()
        try DurableFile().write(
            [UInt8](repeating: 0x25, count: (4 << 20) + 1), directory: cards, name: "join-card.pdf",
            temporaryName: ".tmp")
        var options = StoreFixtures.options(for: stick)
        options.joinCard = "\(cards)/join-card.pdf"
        #expect {
            try StickExporter(store: store, options: options).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError, case .failed(let failure) = error.reason else { return false }
            return failure.operation == "read" && failure.subject == "\(cards)/join-card.pdf"
                && failure.description.contains("larger than 4 MiB")
        }
        #expect(readFile("\(stick)/HeyLook/join-card.pdf")?.count == nil)
        let copied = StoreFixtures.snapshot("\(stick)/HeyLook").keys.filter { $0.hasSuffix(".jpg") }
        #expect(copied.count == 2)
    }

    /// A stick failing at every step in turn while a new card replaces the old: it holds the old card or the new one,
    /// never part of one, and no temp file.
    @Test(arguments: ["open", "write", "fsync", "rename"])
    func aFailingStickNeverHoldsPartOfTheCard(operation: String) throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        let cards = temporaryDirectory()
        let card = [UInt8](repeating: 0x25, count: 200_000)
        try DurableFile().write(card, directory: cards, name: "join-card.pdf", temporaryName: ".tmp")
        var options = StoreFixtures.options(for: stick)
        options.joinCard = "\(cards)/join-card.pdf"
        _ = try StickExporter(store: store, options: options).export(to: stick)  // The photo, and the card.
        let newer = [UInt8](repeating: 0x26, count: 200_000)
        try DurableFile().write(newer, directory: cards, name: "join-card.pdf", temporaryName: ".tmp", replacing: true)
        var failures = 0
        for n in 1...40 {
            options.operations = StickFaults(failing: operation, at: n, with: EIO)
            let succeeded = (try? StickExporter(store: store, options: options).export(to: stick)) != nil
            let onStick = readFile("\(stick)/HeyLook/join-card.pdf")
            #expect(onStick == card || onStick == newer, "part of a card after failing \(operation) #\(n)")
            #expect(
                !StoreFixtures.snapshot("\(stick)/HeyLook").keys.contains {
                    $0.hasPrefix(".") && $0 != StickExporter.lockName
                })
            if succeeded {
                #expect(onStick == newer)
                break
            }
            failures += 1
        }
        #expect(failures > 0, "no \(operation) failed")
    }

    /// A photo saved undated and dated since by a phone's clock goes into its date's folder (in local time), byte
    /// for byte; one still undated goes to `undated/`.
    @Test func anUndatedPhotoDatedSinceIsExportedIntoItsDatesFolder() throws {
        let store = try PhotoStore(directory: temporaryDirectory(), reserve: 0)
        let boot = String(repeating: "5", count: 32)
        let dated = try store.save(
            StoreFixtures.photo(1), takenAt: nil, moment: BootInstant(boot: boot, instant: .seconds(10)))
        let undated = try store.save(StoreFixtures.photo(2), takenAt: nil)
        let at = try #require(BootInstant(boot: boot, instant: .seconds(70)))
        #expect(try store.date(by: ClockMark(setTo: 1_795_780_800, was: 0, phone: "::1", at: at)) == 1)
        let stick = temporaryDirectory()
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.copied == 2)
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        let day = PhotoName.DateTime(localSeconds: 1_795_780_740).dateString
        #expect(found[String(dated.split(separator: "/").last!)] == "\(day)/\(dated.split(separator: "/").last!)")
        #expect(found[String(undated.split(separator: "/").last!)] == "undated/\(undated.split(separator: "/").last!)")
    }

    @Test func reExportCopiesOnlyNewPhotos() throws {
        let store = try StoreFixtures.store(photos: 3)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        let first = try exporter.export(to: stick)
        let again = try exporter.export(to: stick)
        #expect(again.copied == 0 && again.adopted == 0 && again.alreadyThere == 3 && again.stickID == first.stickID)
        _ = try store.save(
            StoreFixtures.photo(99), takenAt: .init(year: 2026, month: 12, day: 1, hour: 9, minute: 0, second: 0))
        let third = try exporter.export(to: stick)
        #expect(third.copied == 1 && third.alreadyThere == 3)
        #expect(try checkStick(stick, holdsOnlyCompletePhotosOf: store).count == 4)
    }

    @Test func twoBoothsOnOneStickAreKeptApart() throws {
        let a = try StoreFixtures.store(photos: 2, seed: 1)
        let b = try StoreFixtures.store(photos: 2, seed: 2)  // same names, other content
        #expect(a.boothID != b.boothID)
        #expect(try a.keptPhotos() == b.keptPhotos())
        let stick = temporaryDirectory()
        let options = StoreFixtures.options(for: stick)
        _ = try StickExporter(store: a, options: options).export(to: stick)
        let fromB = try StickExporter(store: b, options: options).export(to: stick)
        #expect(fromB.copied == 2)
        let manifest = try #require(
            ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
        #expect(manifest.entries.filter { $0.booth == a.boothID }.count == 2)
        #expect(manifest.entries.filter { $0.booth == b.boothID }.count == 2)
        #expect(Set(manifest.entries.map(\.path)).count == 4)
        let files = StoreFixtures.snapshot("\(stick)/HeyLook")
        for entry in manifest.entries {
            let store = entry.booth == a.boothID ? a : b
            #expect(files[entry.path] == CRC32.checksum(readFile("\(store.directory)/\(entry.source)") ?? []))
        }
        // Each booth again: nothing new.
        #expect(try StickExporter(store: a, options: options).export(to: stick).copied == 0)
        #expect(try StickExporter(store: b, options: options).export(to: stick).copied == 0)
    }

    /// Two booths that still share one id (cloned from one SD card on this machine, so the clone is not
    /// detected) and whose photos share names and sizes: the manifest's entries for that id hold the
    /// first booth's files, whose CRC-32s are right but are not the ones the second booth saved its
    /// photos with, so none of them counts as already there: every photo of both is on the stick.
    @Test func aBoothWithTheSameIdAndOtherPhotosUnderTheSameNamesStillExportsThem() throws {
        let a = try StoreFixtures.store(photos: 2, seed: 1)
        let cloneDirectory = temporaryDirectory()
        let id = try #require(readFile("\(a.directory)/\(PhotoStore.boothIDName)"))
        try DurableFile().write(id, directory: cloneDirectory, name: PhotoStore.boothIDName, temporaryName: ".t")
        let b = try StoreFixtures.store(photos: 2, directory: cloneDirectory, seed: 2)  // same names, other content
        #expect(b.boothID == a.boothID && b.replacedBoothID == nil)
        #expect(try a.keptPhotos() == b.keptPhotos())
        let stick = temporaryDirectory()
        let options = StoreFixtures.options(for: stick)
        #expect(try StickExporter(store: a, options: options).export(to: stick).copied == 2)
        let fromB = try StickExporter(store: b, options: options).export(to: stick)
        #expect(fromB.alreadyThere == 0 && fromB.copied == 2)
        let onStick = Set(StoreFixtures.snapshot("\(stick)/HeyLook").values)
        for store in [a, b] {
            for (name, bytes) in try photos(of: store) {
                #expect(onStick.contains(CRC32.checksum(bytes)), "\(name) of \(store.directory) is not on the stick")
            }
        }
        // What each store records as exported is its own photo's CRC-32.
        for store in [a, b] {
            for record in store.records() {
                #expect(record.exportedTo.count == 1)
                #expect(record.checksum == CRC32.checksum(readFile("\(store.directory)/\(record.name)") ?? []))
            }
        }
    }

    @Test func aDamagedManifestIsRebuiltByVerifyingTheFiles() throws {
        let store = try StoreFixtures.store(photos: 3)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        let first = try exporter.export(to: stick)
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        // Damage the manifest, and replace one photo on the stick by other bytes of the same size.
        let manifestPath = "\(stick)/HeyLook/manifest.txt"
        let text = PhotoStore.readSmallFile(manifestPath)!
        try DurableFile().write(
            Array(text.utf8.dropLast(9)), directory: "\(stick)/HeyLook", name: "manifest.txt", temporaryName: ".m",
            replacing: true)
        let tampered = found.sorted { $0.key < $1.key }[0]
        let size = readFile("\(store.directory)/\(tampered.key)")!.count
        unlink("\(stick)/HeyLook/\(tampered.value)")
        try DurableFile().write(
            [UInt8](repeating: 0x55, count: size),
            directory: "\(stick)/HeyLook/\(tampered.value.split(separator: "/")[0])",
            name: tampered.key, temporaryName: ".t")

        let again = try exporter.export(to: stick)
        #expect(again.manifestRebuilt)
        #expect(again.stickID == first.stickID)  // salvaged
        #expect(again.adopted == 2)  // verified, not trusted
        #expect(again.copied == 1)  // the tampered one: copied beside it under another name
        let manifest = try #require(ExportManifest.decode(PhotoStore.readSmallFile(manifestPath) ?? ""))
        #expect(manifest.entries.count == 3)
        #expect(!manifest.entries.contains { $0.path == tampered.value })
        // The stranger's file is left alone.
        #expect(readFile("\(stick)/HeyLook/\(tampered.value)") == [UInt8](repeating: 0x55, count: size))
    }

    /// An intact manifest that claims this booth's photos over same-size junk under their names (crafted,
    /// or files replaced since) never suppresses a photo: the content is compared, not only name and
    /// size, and each photo is copied beside the junk; the junk is left alone.
    @Test func aManifestClaimingSameSizeJunkNeverSuppressesAPhoto() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        _ = try exporter.export(to: stick)
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        let manifest = PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt")
        for (source, path) in found {
            let size = readFile("\(store.directory)/\(source)")!.count
            unlink("\(stick)/HeyLook/\(path)")
            try DurableFile().write(
                [UInt8](repeating: 0x55, count: size), directory: "\(stick)/HeyLook/\(path.split(separator: "/")[0])",
                name: source, temporaryName: ".t")
        }
        #expect(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") == manifest)

        let again = try exporter.export(to: stick)
        #expect(again.alreadyThere == 0)
        #expect(again.copied == 2)
        let onStick = Set(StoreFixtures.snapshot("\(stick)/HeyLook").values)
        for (name, bytes) in try photos(of: store) {
            #expect(onStick.contains(CRC32.checksum(bytes)), "\(name) is not on the stick")
        }
        for (source, path) in found {
            let size = readFile("\(store.directory)/\(source)")!.count
            #expect(readFile("\(stick)/HeyLook/\(path)") == [UInt8](repeating: 0x55, count: size))
        }
    }

    @Test func aLinkWhereTheExportFolderShouldBeIsRefused() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let outside = temporaryDirectory()
        #expect(symlink(outside, "\(stick)/HeyLook") == 0)
        #expect {
            try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError, case .refusedLink = error.reason else { return false }
            return true
        }
        #expect(StoreFixtures.snapshot(outside).isEmpty)
    }

    @Test func aLinkWhereADateFolderShouldBeIsRefused() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let outside = temporaryDirectory()
        mkdir("\(stick)/HeyLook", 0o755)
        #expect(symlink(outside, "\(stick)/HeyLook/2026-11-21") == 0)
        // A photo-named link to a file outside is never written through either.
        mkdir("\(stick)/HeyLook/2026-11-22", 0o755)
        let victim = "\(outside)/victim"
        try DurableFile().write([1, 2, 3], directory: outside, name: "victim", temporaryName: ".v")
        let second = try store.keptPhotos()[1]
        #expect(symlink(victim, "\(stick)/HeyLook/2026-11-22/\(second)") == 0)
        #expect(symlink(victim, "\(stick)/HeyLook/2026-11-22/.\(second).partial") == 0)
        #expect(throws: ExportError.self) {
            try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        }
        #expect(StoreFixtures.snapshot(outside) == ["victim": CRC32.checksum([1, 2, 3])])
    }

    /// Only the booth's own leftovers are deleted on a stick: a temp file or an empty file under a photo
    /// name (ours, or with a booth tag) goes; anybody else's empty or `.NAME.partial` file stays.
    @Test func onlyTheBoothsOwnTempAndEmptyFilesAreDeletedOnAStick() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        let exporter = StickExporter(store: store, options: StoreFixtures.options(for: stick))
        _ = try exporter.export(to: stick)
        let folder = "\(stick)/HeyLook/2026-11-21"
        let strangers: [String: [UInt8]] = [
            "notes.txt": [], ".other.txt.partial": [1, 2], ".x.partial": [], "IMG_0001.jpg": [],
            "HeyLook_2026-11-21_10-05-00_000009_zz.jpg": [],
        ]
        let ours: [String: [UInt8]] = [
            ".HeyLook_2026-11-21_10-05-00_000009.jpg.partial": [1],
            "HeyLook_2026-11-21_10-06-00_000010.jpg": [],
            ".HeyLook_2026-11-21_10-07-00_000011_1a2b3c4d-2.jpg.partial": [1],
            "HeyLook_2026-11-21_10-08-00_000012_1a2b3c4d.jpg": [],
        ]
        for (name, bytes) in strangers.merging(ours, uniquingKeysWith: { a, _ in a }) {
            try DurableFile().write(bytes, directory: folder, name: name, temporaryName: ".t")
        }
        _ = try exporter.export(to: stick)
        for (name, bytes) in strangers { #expect(readFile("\(folder)/\(name)") == bytes, "\(name) was touched") }
        for name in ours.keys { #expect(readFile("\(folder)/\(name)") == nil, "\(name) was left") }
    }

    /// Hundreds of files already using one photo's names (crafted) cost that photo only: it is skipped
    /// with a message naming the folder and what to do, and the export goes on with the others.
    @Test func aPhotoWithHundredsOfCollidingNamesIsSkippedAndTheExportGoesOn() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let victim = try store.keptPhotos()[0]
        let folder = "\(stick)/HeyLook/2026-11-21"
        #expect(mkdir("\(stick)/HeyLook", 0o755) == 0 && mkdir(folder, 0o755) == 0)
        for attempt in 0..<300 {
            let name = ExportPlan.alternativeName(victim, booth: store.boothID, attempt: attempt)
            try DurableFile().write([7], directory: folder, name: name, temporaryName: ".t")
        }
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.copied == 1)
        let skip = try #require(summary.skipped.first { $0.source == victim })
        #expect(skip.reason.contains("2026-11-21"))
        #expect(skip.reason.contains("remove"))
        #expect(store.records().first { $0.name == victim }?.exportedTo.isEmpty == true)
        #expect(readFile("\(folder)/\(victim)") == [7])
    }

    /// Should a FAT rename ever leave `.NAME.partial` on the same clusters as `NAME`, the next export
    /// leaves that temp file alone (deleting it would free the photo's clusters) and only removes temp
    /// files without a final twin.
    @Test func aTempFileBesideItsFinalNameIsLeftAlone() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        _ = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        let path = try #require(try checkStick(stick, holdsOnlyCompletePhotosOf: store).values.first)
        let folder = "\(stick)/HeyLook/\(path.split(separator: "/")[0])"
        let name = String(path.split(separator: "/")[1])
        let bytes = try #require(readFile("\(stick)/HeyLook/\(path)"))
        try DurableFile().write(bytes, directory: folder, name: ".\(name).partial", temporaryName: ".t1")
        try DurableFile().write(
            [1, 2], directory: folder, name: ".HeyLook_2026-11-21_23-59-59_000099.jpg.partial", temporaryName: ".t2")
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.copied == 0)
        #expect(readFile("\(folder)/.\(name).partial") == bytes)
        #expect(readFile("\(folder)/.HeyLook_2026-11-21_23-59-59_000099.jpg.partial") == nil)
        #expect(readFile("\(stick)/HeyLook/\(path)") == bytes)
    }

    /// A pull between the two flushes of a FAT rename leaves an empty file under the photo's name (the
    /// manifest does not list it yet): the next export removes it and copies the photo under its own
    /// name, not a "_2" alternative.
    @Test func anEmptyFileUnderAPhotosNameIsReplacedByThePhoto() throws {
        let store = try StoreFixtures.store(photos: 2)
        let first = temporaryDirectory()
        _ = try StickExporter(store: store, options: StoreFixtures.options(for: first)).export(to: first)
        let path = try #require(try checkStick(first, holdsOnlyCompletePhotosOf: store).values.sorted().first)
        let stick = temporaryDirectory()
        let folder = "\(stick)/HeyLook/\(path.split(separator: "/")[0])"
        #expect(mkdir("\(stick)/HeyLook", 0o755) == 0 && mkdir(folder, 0o755) == 0)
        try DurableFile().write([], directory: folder, name: String(path.split(separator: "/")[1]), temporaryName: ".t")
        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.copied == 2)
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        #expect(found.values.sorted() == (try checkStick(first, holdsOnlyCompletePhotosOf: store)).values.sorted())
        #expect(found.values.contains(path))
    }

    @Test func anUnsupportedFileSystemIsLeftUntouched() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        var options = StoreFixtures.options(for: stick)
        options.allowedFileSystems = ["vfat", "exfat"]
        #expect {
            try StickExporter(store: store, options: options).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError, case .unsupportedFileSystem = error.reason else { return false }
            return error.description.contains("FAT32 or exFAT")
        }
        #expect(StoreFixtures.snapshot(stick).isEmpty)
    }

    /// A copy that reads back other than it was written is a failed verification, not a removed stick, and
    /// nothing is marked exported: a failing stick (every read-back wrong; no final name holds a copy) or a
    /// fake-capacity one (each copy reads back right just after it is written, but a later one overwrote
    /// the first: the read-back after the final flush finds it, so `cleanup_exported` deletes none).
    /// The stick is still unmounted (the booth's LEDs then hold the error pattern until it is pulled:
    /// `BoothStateMachineTests`, and the rig's `usb-fake`).
    @Test(arguments: [false, true])
    func aReadBackMismatchIsAVerificationFailureAndNothingIsMarked(wrapsAround: Bool) throws {
        let store = try StoreFixtures.store(photos: 3)
        let stick = temporaryDirectory()
        let faults = wrapsAround ? StickFaults(wrappingAround: ()) : StickFaults(corruptingReadBack: ())
        let unmounter = RecordingUnmounter()
        var options = StoreFixtures.options(for: stick, operations: faults)
        (options.unmount, options.unmounter) = (true, unmounter)
        do {
            let summary = try StickExporter(store: store, options: options).export(to: stick)
            Issue.record("expected the export to fail: \(summary)")
        } catch {
            #expect(error.verificationFailed && !error.stickRemoved)
            #expect(error.description.contains("verification failed"))
            #expect(!error.description.contains("removed"))
            #expect(error.unmounted)
        }
        #expect(unmounter.calls == [stick])
        #expect(store.records().allSatisfy { $0.exportedTo.isEmpty })
        if !wrapsAround { #expect(try checkStick(stick, holdsOnlyCompletePhotosOf: store).isEmpty) }
    }

    /// A version 2 manifest's text as version 1 wrote it: no SHA-256 column, its own end line.
    func asVersion1(_ text: String) -> String {
        let lines = text.split(separator: "\n").dropLast().map { line in
            if line == "heylook-manifest 2" { return "heylook-manifest 1" }
            return line.hasPrefix("file ") ? line.split(separator: " ").dropLast().joined(separator: " ") : String(line)
        }
        let body = lines.joined(separator: "\n") + "\n"
        return body + "end \(CRC32.hex(CRC32.checksum(body.utf8)))\n"
    }

    /// `bytes` with its last 4 bytes changed so its CRC-32 is `target`: what anyone can do to a file (CRC-32 is
    /// linear), so a size and a CRC-32 prove nothing about its content.
    func forgingCRC(_ bytes: [UInt8], to target: UInt32) -> [UInt8] {
        let table: [UInt32] = (0..<256).map { n in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }
        var byTopByte = [Int](repeating: 0, count: 256)
        for (n, entry) in table.enumerated() { byTopByte[Int(entry >> 24)] = n }
        let prefix = Array(bytes.dropLast(4))
        let register = ~CRC32.checksum(prefix)
        var wanted = ~target
        for _ in 0..<4 {
            let n = byTopByte[Int(wanted >> 24)]
            wanted = ((wanted ^ table[n]) << 8) | UInt32(n)
        }
        let patch = wanted ^ register
        return prefix + (0..<4).map { UInt8(truncatingIfNeeded: patch >> (8 * $0)) }
    }

    /// A guest's stick crafted to claim this booth's photos: a manifest naming each with its real size and CRC-32,
    /// and at each path a file of other bytes forged to that size and CRC-32 (and, in a version 2 manifest, the
    /// forged file's own SHA-256). None counts as exported: the booth compares each file's SHA-256 with its own
    /// photo's, copies the real photos beside the forgeries and leaves those alone. Mutation: with the CRC-32
    /// comparison alone (as before SHA-256), every forgery is "already there", nothing is copied, and
    /// `cleanup_exported` could delete photos no stick holds.
    @Test(arguments: [1, 2])
    func aStickForgingClaimsWithTheRightSizeAndCRCGetsTheRealPhotos(manifestVersion: Int) throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        var entries: [ExportManifest.Entry] = []
        var forged: [String: [UInt8]] = [:]
        for record in store.records() {
            let real = try #require(readFile("\(store.directory)/\(record.name)"))
            var fake = real
            for k in stride(from: 100, to: fake.count - 4, by: 7) { fake[k] ^= 0x5A }
            fake = forgingCRC(fake, to: CRC32.checksum(real))
            try #require(fake != real && fake.count == real.count && CRC32.checksum(fake) == CRC32.checksum(real))
            let folder = "2026-11-21"
            try #require(mkdir("\(stick)/HeyLook", 0o755) == 0 || errno == EEXIST)
            try #require(mkdir("\(stick)/HeyLook/\(folder)", 0o755) == 0 || errno == EEXIST)
            try DurableFile().write(
                fake, directory: "\(stick)/HeyLook/\(folder)", name: record.name, temporaryName: ".f")
            forged["\(folder)/\(record.name)"] = fake
            entries.append(
                ExportManifest.Entry(
                    booth: store.boothID, source: record.name, path: "\(folder)/\(record.name)",
                    size: Int64(real.count), checksum: CRC32.checksum(real),
                    sha256: manifestVersion == 2 ? SHA256.hash(fake) : nil))
        }
        var text = ExportManifest(stickID: "guest", entries: entries).encode()
        if manifestVersion == 1 { text = asVersion1(text) }
        try #require(ExportManifest.decode(text)?.entries.count == 2)
        try DurableFile().write(
            Array(text.utf8), directory: "\(stick)/HeyLook", name: "manifest.txt", temporaryName: ".m")

        let summary = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(summary.alreadyThere == 0 && summary.adopted == 0)
        #expect(summary.copied == 2, "the real photos are copied beside the forgeries")
        let found = try checkStick(stick, holdsOnlyCompletePhotosOfOrForged: store, forged: forged)
        #expect(found.count == 2)
        for (path, bytes) in forged { #expect(readFile("\(stick)/HeyLook/\(path)") == bytes, "\(path) left alone") }
        let manifest = try #require(ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt")!))
        #expect(!manifest.entries.contains { forged[$0.path] != nil }, "no forgery stays in the manifest")
        #expect(manifest.entries.allSatisfy { $0.sha256 != nil })
    }

    /// A stick exported to by a booth before SHA-256 (a version 1 manifest): its copies are read back, found to be
    /// the booth's own photos (SHA-256 of both), counted as already there and exported, and the manifest is
    /// rewritten as version 2 with their SHA-256s.
    @Test func aVersion1ManifestsGenuineCopiesAreVerifiedAndGainTheirSHA256() throws {
        let store = try StoreFixtures.store(photos: 2)
        let stick = temporaryDirectory()
        let first = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        let path = "\(stick)/HeyLook/manifest.txt"
        let v1 = asVersion1(try #require(PhotoStore.readSmallFile(path)))
        try DurableFile().write(
            Array(v1.utf8), directory: "\(stick)/HeyLook", name: "manifest.txt", temporaryName: ".m", replacing: true)
        let old = try #require(ExportManifest.decode(v1))
        try #require(old.entries.count == 2 && old.entries.allSatisfy { $0.sha256 == nil })
        unlink("\(store.directory)/\(PhotoStore.indexName)")
        let fresh = try PhotoStore(directory: store.directory, reserve: 0)
        let again = try StickExporter(store: fresh, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(again.copied == 0 && again.alreadyThere == 2)
        #expect(fresh.records().allSatisfy { $0.exportedTo == [first.stickID] })
        let manifest = try #require(ExportManifest.decode(PhotoStore.readSmallFile(path)!))
        #expect(PhotoStore.readSmallFile(path)?.hasPrefix("heylook-manifest 2\n") == true)
        for entry in manifest.entries {
            #expect(entry.sha256 == SHA256.hash(readFile("\(store.directory)/\(entry.source)")!))
        }
    }

    /// A stick pulled mid-export records nothing in the index; the next insert reads the manifest's
    /// claims back and records them with its own copies.
    @Test func claimsVerifiedAtTheNextInsertAreRecorded() throws {
        let store = try StoreFixtures.store(photos: 3)
        let stick = temporaryDirectory()
        let first = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(first.copied == 3)
        #expect(store.records().allSatisfy { $0.exportedTo == [first.stickID] })
        // The index forgets (as after a pull before the final flush); the next export finds the copies.
        unlink("\(store.directory)/\(PhotoStore.indexName)")
        let fresh = try PhotoStore(directory: store.directory, reserve: 0)
        #expect(fresh.records().allSatisfy { $0.exportedTo.isEmpty })
        let again = try StickExporter(store: fresh, options: StoreFixtures.options(for: stick)).export(to: stick)
        #expect(again.copied == 0 && again.alreadyThere == 3)
        #expect(fresh.records().allSatisfy { $0.exportedTo == [first.stickID] })
    }

    /// A folder that is not the file system the booth saw mounted there (another device number) is refused
    /// before anything is read or written; given its own device it is exported. Mutation: without
    /// `checkDevice` the first export writes into the folder.
    @Test func aFolderOfAnotherDeviceThanTheStickSeenIsRefused() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        let unmounter = RecordingUnmounter()
        var options = StoreFixtures.options(for: stick)
        (options.unmount, options.unmounter) = (true, unmounter)
        var info = stat()
        try #require(stat(stick, &info) == 0)
        let own = StickAdmission.deviceName(info.st_dev)
        let other = own == "8:1" ? "8:17" : "8:1"
        #expect {
            try StickExporter(store: store, options: options).export(to: stick, device: other)
        } throws: { error in
            guard let error = error as? ExportError, case .mountChanged(_, let expected, let found) = error.reason
            else { return false }
            return expected == other && found == own && !error.unmounted
        }
        #expect(StoreFixtures.snapshot(stick).isEmpty && unmounter.calls.isEmpty)
        let summary = try StickExporter(store: store, options: options).export(to: stick, device: own)
        #expect(summary.copied == 1 && unmounter.calls == [stick])
    }

    @Test func aRefusedMountIsNeverUnmounted() throws {
        let store = try StoreFixtures.store(photos: 1)
        let stick = temporaryDirectory()
        let unmounter = RecordingUnmounter()
        var options = StoreFixtures.options(for: stick)
        let type = options.allowedFileSystems
        (options.allowedFileSystems, options.unmount, options.unmounter) = (["vfat", "exfat"], true, unmounter)
        #expect {
            try StickExporter(store: store, options: options).export(to: stick)
        } throws: { error in
            guard let error = error as? ExportError else { return false }
            return error.isRefusedFileSystem && !error.unmounted && error.description.contains("stays mounted")
        }
        #expect(unmounter.calls.isEmpty)

        // An accepted one is unmounted through the same seam.
        options.allowedFileSystems = type
        let summary = try StickExporter(store: store, options: options).export(to: stick)
        #expect(summary.unmounted && unmounter.calls == [stick])
    }

    /// Asked to stop (the booth is shutting down), an export ends before its next photo: what it copied
    /// is recorded and verified, the stick is unmounted, no temp file is left, and the next export
    /// copies the rest.
    /// Counts the read-backs of finished copies (`DurableFile.verify` begins by dropping the file's cached pages)
    /// once `stopping` is set.
    final class ReadBackCounter: FileOperations, @unchecked Sendable {
        let real = SystemFileOperations()
        var stopping = false
        var readBacks = 0
        func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? { real.open(path, flags, mode) }
        func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int { real.write(fd, buffer) }
        func fsync(_ fd: FileDescriptor) -> Int32 { real.fsync(fd) }
        func close(_ fd: FileDescriptor) -> Int32 { real.close(fd) }
        func renameNoReplace(_ from: String, _ to: String) -> Int32 { real.renameNoReplace(from, to) }
        func rename(_ from: String, _ to: String) -> Int32 { real.rename(from, to) }
        func unlink(_ path: String) -> Int32 { real.unlink(path) }
        func dropCache(_ fd: FileDescriptor) -> Int32 {
            if stopping { readBacks += 1 }
            return real.dropCache(fd)
        }
    }

    /// Export options for `stick` through a fresh `ReadBackCounter`, unmounting with a `RecordingUnmounter`.
    func stoppableOptions(for stick: String) -> (ExportOptions, ReadBackCounter, RecordingUnmounter) {
        let (counter, unmounter) = (ReadBackCounter(), RecordingUnmounter())
        var options = StoreFixtures.options(for: stick, operations: counter)
        (options.unmount, options.unmounter) = (true, unmounter)
        return (options, counter, unmounter)
    }

    /// A stop keeps what was copied, writes the manifest and unmounts, but reads back only the manifest: not
    /// every copy of the run, which late in a large export would outlast the unit's stop timeout. The copies
    /// count as exported once the next insert has read them back. Mutation: the read-back of every copy at
    /// a stop (as before) reads 2 files back and records 2 exports here.
    @Test func aStoppedExportKeepsWhatItCopiedAndUnmountsWithoutReadingItAllBack() throws {
        let store = try StoreFixtures.store(photos: 5)
        let stick = temporaryDirectory()
        let (options, counter, unmounter) = stoppableOptions(for: stick)
        var copied = 0
        #expect {
            try StickExporter(store: store, options: options).export(
                to: stick, progress: { done, _ in copied = done },
                shouldStop: {
                    counter.stopping = copied >= 2
                    return counter.stopping
                })
        } throws: { error in
            guard let error = error as? ExportError, case .stopped = error.reason else { return false }
            return error.done == 2 && error.total == 5 && error.unmounted
                && error.description.contains("2 of 5 photos copied")
        }
        #expect(unmounter.calls == [stick])
        #expect(counter.readBacks == 0, "no copy is read back again after the stop")
        let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
        #expect(found.count == 2)
        #expect(store.records().filter { !$0.exportedTo.isEmpty }.isEmpty, "not exported until read back")

        counter.stopping = false
        let summary = try StickExporter(store: store, options: options).export(to: stick)
        #expect(summary.copied == 3 && summary.alreadyThere == 2)
        #expect(store.records().filter { !$0.exportedTo.isEmpty }.count == 5, "the stopped run's copies read back")
    }

    /// A stop that comes while the export reads the manifest's claims back (a stick holding hundreds of photos, each
    /// read from the device) ends before the next claim: nothing is read, the manifest stays as it was, the stick is
    /// unmounted. Mutation: without the stop check in `checkClaims` (as before) all 6 claims are read back first.
    @Test func aStopWhileTheClaimsAreReadBackEndsBeforeTheNextClaim() throws {
        let store = try StoreFixtures.store(photos: 6)
        let stick = temporaryDirectory()
        _ = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
        let manifest = readFile("\(stick)/HeyLook/\(StickExporter.manifestName)")
        let (options, counter, unmounter) = stoppableOptions(for: stick)
        counter.stopping = true
        #expect {
            try StickExporter(store: store, options: options).export(to: stick, shouldStop: { counter.stopping })
        } throws: { error in
            guard let error = error as? ExportError, case .stopped = error.reason else { return false }
            return error.unmounted && error.description.contains("while it checked the photos already on the stick")
        }
        #expect(counter.readBacks == 0, "claims read back after the stop")
        #expect(unmounter.calls == [stick])
        #expect(readFile("\(stick)/HeyLook/\(StickExporter.manifestName)") == manifest)
        #expect(store.records().allSatisfy { !$0.exportedTo.isEmpty }, "the first export's records stay")
    }

    /// A stop that comes once every photo is copied, while the copies are read back, ends before the next read-back:
    /// the copies are in the manifest on the stick (flushed, unmounted) and count as exported once the next insert has
    /// read them back. Mutation: without the stop check in `verifyCopiesAndRecord` (as before) all 5 copies are read
    /// back and the export finishes.
    @Test func aStopDuringTheFinalReadBackLeavesTheCopiesToTheNextInsert() throws {
        let store = try StoreFixtures.store(photos: 5)
        let stick = temporaryDirectory()
        let (options, counter, unmounter) = stoppableOptions(for: stick)
        #expect {
            try StickExporter(store: store, options: options).export(
                to: stick, progress: { done, total in counter.stopping = total > 0 && done == total },
                shouldStop: { counter.stopping })
        } throws: { error in
            guard let error = error as? ExportError, case .stopped = error.reason else { return false }
            return error.done == 5 && error.total == 5 && error.unmounted
        }
        #expect(counter.readBacks == 1, "the manifest's own read-back, no copy's")
        #expect(unmounter.calls == [stick])
        #expect(try checkStick(stick, holdsOnlyCompletePhotosOf: store).count == 5)
        #expect(store.records().allSatisfy { $0.exportedTo.isEmpty }, "exported before being read back")

        counter.stopping = false
        let summary = try StickExporter(store: store, options: options).export(to: stick)
        #expect(summary.copied == 0 && summary.alreadyThere == 5)
        #expect(store.records().allSatisfy { !$0.exportedTo.isEmpty }, "the claims read back at the next insert")
    }

    /// Fail every call of each kind the seam has (write, fsync, rename, read, open, mkdir, stat, list ...)
    /// in turn with EIO, ENOSPC and ENODEV: the stick holds only complete, verified photos, the store never
    /// changes, and the next export completes.
    @Test(arguments: StickFaults.kinds, [EIO, ENOSPC, ENODEV])
    func aFailureAtAnyStepLeavesOnlyCompletePhotos(operation: String, error: Int32) throws {
        let store = try StoreFixtures.store(photos: 3)
        let before = StoreFixtures.snapshot(store.directory, ignoring: [PhotoStore.indexName])
        var n = 1
        while true {
            let stick = temporaryDirectory()
            let faults = StickFaults(failing: operation, at: n, with: error)
            var failed = false
            do {
                _ = try StickExporter(store: store, options: StoreFixtures.options(for: stick, operations: faults))
                    .export(to: stick)
            } catch {
                failed = true
                #expect(error.errno == faults.error || error.errno == EIO, "\(operation) #\(n): \(error)")
            }
            let found = try checkStick(stick, holdsOnlyCompletePhotosOf: store)
            // A failure that did not stop the export was harmless (closing a folder opened to read).
            if !failed { #expect(found.count == 3, "\(operation) #\(n)") }
            #expect(
                StoreFixtures.snapshot(store.directory, ignoring: [PhotoStore.indexName]) == before, "store changed")
            // Insert again: the export completes.
            let resumed = try StickExporter(store: store, options: StoreFixtures.options(for: stick)).export(to: stick)
            #expect(
                try checkStick(stick, holdsOnlyCompletePhotosOf: store).count == 3, "\(operation) #\(n): \(resumed)")
            let manifest = try #require(
                ExportManifest.decode(PhotoStore.readSmallFile("\(stick)/HeyLook/manifest.txt") ?? ""))
            #expect(manifest.entries.count == 3)
            if !faults.fired { break }
            n += 1
        }
        #expect(n > 1)
    }
}
