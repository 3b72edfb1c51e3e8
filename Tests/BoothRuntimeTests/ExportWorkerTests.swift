// ExportWorkerTests: a stick's sounds are taken only once the export accepted the stick.
import BoothCore
import BoothSystem
import BoothTestSupport
import Glibc
import PhotoStore
import Testing
import USBSticks

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct ExportWorkerTests {
    /// A folder standing in for a stick, with `HeyLook/sounds/` holding a WAV of each of `sounds` (name, samples):
    /// its path, its device number and its file system type (which the test's exporter then accepts).
    func stick(_ sounds: [(String, Int)]) throws -> (path: String, device: String, fileSystem: String) {
        let stick = temporaryDirectory()
        try #require(mkdir("\(stick)/HeyLook", 0o755) == 0 && mkdir("\(stick)/HeyLook/sounds", 0o755) == 0)
        for (name, samples) in sounds {
            let wav = WAVFixtures.pcm16([Int16](repeating: 1000, count: samples))
            let fd = open("\(stick)/HeyLook/sounds/\(name).wav", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            _ = wav.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        var info = stat()
        try #require(stat(stick, &info) == 0)
        return (stick, StickAdmission.deviceName(info.st_dev), try StickAdmission.fileSystemType(at: stick))
    }

    /// Settings with sticks' sounds on, and the booth's state, sounds and media folders of the test's own.
    func settings() -> BoothSettings {
        let state = temporaryDirectory()
        var settings = BoothSettings()
        settings.stickSounds = true
        settings.soundsDirectory = "\(state)/sounds"
        settings.stateFile = "\(state)/state.toml"
        settings.mediaRoot = temporaryDirectory()
        return settings
    }

    /// Exports to `stick` (its sounds on, with `settings`), every call on it made through `stick`'s `calls` and
    /// unmounted by `unmounter`, running a loop of the test's own until the export's end is reported (a minute at
    /// most, so a hang fails rather than waits); every report, in order.
    func exportToTheEnd(
        _ stick: (path: String, device: String, fileSystem: String), calls: PulledStick, settings: BoothSettings,
        unmounter: any StickUnmounter
    ) throws -> [ExportWorker.Report] {
        let loop = try EventLoop()
        var reports: [ExportWorker.Report] = []
        let worker = try ExportWorker(
            store: try store(settings), settings: settings, allowedFileSystems: [stick.fileSystem],
            sounds: StickSounds(
                enabled: true, exportFolder: settings.exportFolder, into: settings.soundsDirectory,
                allowedFileSystems: [stick.fileSystem], operations: calls),
            loop: loop, operations: calls, unmounter: unmounter
        ) { report in
            reports.append(report)
            switch report {
            case .finished, .failed, .unknownStick: loop.stop()
            default: break
            }
        }
        worker.export(to: stick.path, device: stick.device)
        loop.schedule(at: loop.now().advanced(by: .seconds(60))) { loop.stop() }
        try loop.run()
        return reports + worker.finish()
    }

    /// A store in the state folder `settings` name, holding one photo to export.
    func store(_ settings: BoothSettings) throws -> PhotoStore {
        let store = try PhotoStore(directory: "\(settings.stateFolder)/photos", reserve: 0)
        _ = try store.save([0xFF, 0xD8, 1, 0xFF, 0xD9], takenAt: nil)
        return store
    }

    /// With `sound.stick_sounds` on and `export.sticks = "owner"`, a guest's stick (one the booth never made its own)
    /// gets nothing and gives nothing: refused as unknown, no sound read from it, the sounds folder not even made.
    /// The same importer takes its sound when asked directly, so only the owner check kept it out. Fails if the worker
    /// takes a stick's sounds before the export accepted the stick (mutation: `sounds.importSounds` called at the
    /// job's start instead of in `accepted`: the guest's Beep is imported) or if the exporter calls `started` before
    /// its owner check (mutation in `StickExporter`'s `copyAll`); the unit tests before this one passed both.
    @Test func aGuestsStickGivesNoSoundsEvenWithStickSoundsOn() throws {
        let (guest, device, fileSystem) = try stick([("Beep", 4800)])
        let settings = settings()
        let sounds = StickSounds(settings: settings, allowedFileSystems: [fileSystem])
        let worker = try ExportWorker(
            store: try store(settings), settings: settings, owners: OwnerSticks(directory: settings.stateFolder),
            allowedFileSystems: [fileSystem], sounds: sounds, loop: try EventLoop()
        ) { _ in }
        worker.export(to: guest, device: device)
        let reports = worker.finish()

        var refused = false
        for report in reports {
            switch report {
            case .unknownStick: refused = true
            case .soundsImported(_, let imported): Issue.record("sounds taken from a guest's stick: \(imported)")
            case .started: Issue.record("a guest's stick was accepted")
            default: break
            }
        }
        #expect(refused, "the guest's stick is refused as unknown: \(reports)")
        #expect(!FileAccess.exists(settings.soundsDirectory), "nothing reaches the sounds folder")
        #expect(try folderNames(guest) == ["HeyLook"] && folderNames("\(guest)/HeyLook") == ["sounds"], "no manifest")
        // The sound was there to take: the same importer, asked directly, takes it.
        #expect(sounds.importSounds(from: guest, device: device)?.sounds.map(\.name) == ["Beep"])
    }

    /// A stick pulled out while its second sound is being read: the first sound, imported whole, stays; the one being
    /// read and the one after it are refused with the read's error, and nothing of either reaches the sounds folder
    /// (no partial file). The export then fails as a stick removed, without trying to unmount it, and every descriptor
    /// the import and the export opened on the stick is closed. Fails if the export does not see the stick as removed
    /// (mutation: `ExportError.stickRemoved` false: it asks for an unmount), or if the import runs after the copy
    /// (mutation: `importSounds` moved after `export`: the stick's pull is then the import's alone).
    @Test func aStickPulledMidImportLeavesNoPartialSoundAndUnmountsNothing() throws {
        let stick = try stick([("A", 4800), ("B", 200_000), ("C", 4800)])
        let settings = settings()
        let pulled = PulledStick(mountPoint: stick.path, pullReading: "B.wav", atRead: 2)
        let unmounter = RecordingUnmounter()
        let reports = try exportToTheEnd(stick, calls: pulled, settings: settings, unmounter: unmounter)

        #expect(pulled.pulled, "the stick was pulled during B.wav's second read")
        var imported: StickSounds.Imported?
        var removed = false
        for report in reports {
            switch report {
            case .soundsImported(_, let sounds): imported = sounds
            case .failed(_, let fault, let unmounted):
                removed = fault.kind == .gone && fault.source == .stick && fault.code == .system(EIO)
                #expect(!unmounted, "\(fault)")
            case .finished: Issue.record("a pulled stick's export cannot finish: \(reports)")
            default: break
            }
        }
        #expect(removed, "the export fails as a stick removed: \(reports)")
        #expect(imported?.sounds.map(\.name) == ["A"])
        let rejections = imported?.rejections ?? []
        #expect(rejections.count == 2, "\(rejections)")
        #expect(rejections.first?.hasPrefix("Sound 'B.wav' cannot be read (read: ") == true, "\(rejections)")
        #expect(rejections.last?.hasPrefix("Sound 'C.wav' cannot be read (open: ") == true, "\(rejections)")
        #expect(try folderNames(settings.soundsDirectory) == ["A.wav"], "no partial sound")
        #expect(unmounter.calls.isEmpty, "a pulled stick is not unmounted")
        #expect(pulled.openOnStick == 0, "every descriptor on the stick is closed")
    }

    /// A stick left in: its sounds are all imported, and the descriptors the import opened on it closed, before the
    /// export unmounts it (the unmount looks). Fails if the import runs after the export (mutation: `importSounds`
    /// moved after `export`: the unmount sees no sound).
    @Test func theImportEndsBeforeTheExportUnmountsTheStick() throws {
        let stick = try stick([("A", 4800), ("B", 200_000)])
        let settings = settings()
        let calls = PulledStick(mountPoint: stick.path, pullReading: nil)
        let seen = UnmountLooks(sounds: settings.soundsDirectory, stick: calls)
        let reports = try exportToTheEnd(stick, calls: calls, settings: settings, unmounter: seen)

        #expect(reports.contains { if case .finished = $0 { true } else { false } }, "\(reports)")
        #expect(seen.looks == [UnmountLooks.Look(mountPoint: stick.path, sounds: ["A.wav", "B.wav"], openOnStick: 0)])
    }
}

/// An unmount that records, when asked, what the sounds folder holds and how many descriptors are open on the stick.
private final class UnmountLooks: StickUnmounter, @unchecked Sendable {
    /// What one unmount saw.
    struct Look: Equatable {
        var mountPoint: String
        var sounds: [String]
        var openOnStick: Int
    }

    let sounds: String
    let stick: PulledStick
    private(set) var looks: [Look] = []

    init(sounds: String, stick: PulledStick) {
        self.sounds = sounds
        self.stick = stick
    }

    func unmount(_ mountPoint: String) -> SystemError? {
        looks.append(
            Look(
                mountPoint: mountPoint, sounds: (try? folderNames(sounds))?.sorted() ?? [],
                openOnStick: stick.openOnStick))
        return nil
    }
}
