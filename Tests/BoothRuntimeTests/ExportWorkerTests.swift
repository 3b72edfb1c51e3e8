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
    /// With `sound.stick_sounds` on and `export.sticks = "owner"`, a guest's stick (one the booth never made its own)
    /// gets nothing and gives nothing: refused as unknown, no sound read from it, the sounds folder not even made.
    /// The same importer takes its sound when asked directly, so only the owner check kept it out. Fails if the worker
    /// takes a stick's sounds before the export accepted the stick (mutation: `sounds.importSounds` called at the
    /// job's start instead of in `accepted`: the guest's Beep is imported) or if the exporter calls `started` before
    /// its owner check (mutation in `StickExporter`'s `copyAll`); the unit tests before this one passed both.
    @Test func aGuestsStickGivesNoSoundsEvenWithStickSoundsOn() throws {
        let guest = temporaryDirectory()
        try #require(mkdir("\(guest)/HeyLook", 0o755) == 0 && mkdir("\(guest)/HeyLook/sounds", 0o755) == 0)
        let wav = WAVFixtures.pcm16([Int16](repeating: 1000, count: 4800))
        let fd = open("\(guest)/HeyLook/sounds/Beep.wav", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(fd >= 0)
        _ = wav.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var info = stat()
        try #require(stat(guest, &info) == 0)
        let device = StickExporter.deviceName(info.st_dev)
        let root = open(guest, O_RDONLY | O_DIRECTORY)
        let fileSystem = try #require(StickExporter.fileSystemType(of: root))
        close(root)

        let state = temporaryDirectory()
        var settings = BoothSettings()
        settings.stickSounds = true
        settings.soundsDirectory = "\(state)/sounds"
        settings.stateFile = "\(state)/state.toml"
        settings.mediaRoot = temporaryDirectory()
        let store = try PhotoStore(directory: "\(state)/photos", reserve: 0)
        _ = try store.save([0xFF, 0xD8, 1, 0xFF, 0xD9], takenAt: nil)
        let sounds = StickSounds(settings: settings, allowedFileSystems: [fileSystem])
        let worker = try ExportWorker(
            store: store, settings: settings, owners: OwnerSticks(directory: state), allowedFileSystems: [fileSystem],
            sounds: sounds, loop: try EventLoop()
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
}
