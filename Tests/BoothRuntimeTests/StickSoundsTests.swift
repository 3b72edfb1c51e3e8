// StickSoundsTests: what a stick may do to the booth's sounds: opt-in, only an accepted stick, no link followed.
import BoothCore
import BoothSystem
import BoothTestSupport
import Glibc
import PhotoStore
import Testing
import USBSticks

@testable import BoothRuntime

@Suite struct StickSoundsTests {
    func put(_ bytes: [UInt8], _ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// A "stick" (a temporary folder) with `HeyLook/sounds/` holding Beep, a broken WAV and a text file.
    func stick() throws -> String {
        let stick = temporaryDirectory()
        try #require(mkdir("\(stick)/HeyLook", 0o755) == 0 && mkdir("\(stick)/HeyLook/sounds", 0o755) == 0)
        put(WAVFixtures.pcm16([Int16](repeating: 1000, count: 4800)), "\(stick)/HeyLook/sounds/Beep.wav")
        put(Array("RIFF\u{10}\0\0\0WAVEjunk".utf8), "\(stick)/HeyLook/sounds/Broken.wav")
        put([1, 2, 3], "\(stick)/HeyLook/sounds/notes.txt")
        return stick
    }

    /// The file system of the temporary folders, accepted as a stick's for these tests.
    func localFileSystem() throws -> String {
        try StickAdmission.fileSystemType(at: temporaryDirectory())
    }

    func sounds(enabled: Bool, into folder: String, allowing: Set<String>? = nil) throws -> StickSounds {
        StickSounds(
            enabled: enabled, exportFolder: "HeyLook", into: folder,
            allowedFileSystems: try allowing ?? [localFileSystem()])
    }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test func aSticksSoundsAreImportedDecodedAndTheBadOnesNamed() throws {
        let folder = temporaryDirectory() + "/sounds"
        let imported = try #require(try sounds(enabled: true, into: folder).importSounds(from: stick()))
        #expect(imported.sounds.map(\.name) == ["Beep"])
        #expect(imported.sounds.first?.buffer.duration == .milliseconds(100))
        #expect(imported.rejections.count == 1)
        #expect(imported.rejections.first?.hasPrefix("Sound 'Broken.wav'") == true)
        #expect(exists("\(folder)/Beep.wav"), "the sounds folder was made and holds the sound")
        #expect(!exists("\(folder)/Broken.wav"))
    }

    /// A folder of another device than the stick mountinfo showed there is not read: no sound comes from a mount
    /// that is not the stick seen. Mutation: without `checkDevice` in the import, Beep is imported.
    @Test func aMountThatIsNotTheStickSeenGivesNoSounds() throws {
        let folder = temporaryDirectory() + "/sounds"
        let stick = try stick()
        var info = stat()
        try #require(stat(stick, &info) == 0)
        let own = StickAdmission.deviceName(info.st_dev)
        let importer = try sounds(enabled: true, into: folder)
        #expect(importer.importSounds(from: stick, device: own == "8:1" ? "8:17" : "8:1") == nil)
        #expect(!exists("\(folder)/Beep.wav"))
        #expect(importer.importSounds(from: stick, device: own)?.sounds.map(\.name) == ["Beep"])
    }

    /// Off (the default), a stick changes nothing and says how to turn it on. Mutation: the import before it was
    /// opt-in (every stick imported) fails this.
    @Test func withStickSoundsOffAStickChangesNothingAndSaysHowToTurnItOn() throws {
        let folder = temporaryDirectory() + "/sounds"
        let result = try #require(try sounds(enabled: false, into: folder).importSounds(from: stick()))
        #expect(result.sounds.isEmpty)
        #expect(result.rejections.count == 1)
        #expect(result.rejections[0].contains("sounds from sticks are off"))
        #expect(result.rejections[0].contains("stick_sounds = true"))
        #expect(!exists(folder), "not even the sounds folder is made")
        #expect(BoothSettings().stickSounds == false, "off by default")
    }

    /// A stick of a file system the export refuses (a hand-mounted ext4, here whatever the temporary folder
    /// is on) is not read for sounds: the export's refusal says why. Mutation: importing before the
    /// file-system check (as the worker did) fails this.
    @Test func aStickOfARefusedFileSystemIsNotReadForSounds() throws {
        let folder = temporaryDirectory() + "/sounds"
        let refusing = try sounds(enabled: true, into: folder, allowing: ["vfat", "exfat"])
        try #require(!["vfat", "exfat"].contains(try localFileSystem()))
        #expect(refusing.importSounds(from: try stick()) == nil)
        #expect(!exists("\(folder)/Beep.wav"))
    }

    /// `HeyLook` or `HeyLook/sounds` as a link (to sounds anywhere) is refused, never followed. Mutation: opening
    /// the path `<stick>/HeyLook/sounds` (as the worker did) follows both links and fails this.
    @Test(arguments: ["HeyLook", "HeyLook/sounds"])
    func aLinkOnTheStickIsRefusedNotFollowed(linked: String) throws {
        let elsewhere = try stick()
        let stick = temporaryDirectory()
        if linked == "HeyLook/sounds" { try #require(mkdir("\(stick)/HeyLook", 0o755) == 0) }
        try #require(symlink("\(elsewhere)/\(linked)", "\(stick)/\(linked)") == 0)
        let folder = temporaryDirectory() + "/sounds"
        let result = try #require(try sounds(enabled: true, into: folder).importSounds(from: stick))
        #expect(result.sounds.isEmpty)
        #expect(
            result.rejections == [
                "The stick's HeyLook/sounds is not a folder (a link or a file); it is not read. Fix: make it a folder."
            ])
        #expect(!exists("\(folder)/Beep.wav"))
    }

    @Test func aStickWithoutASoundsFolderImportsNothingAndSaysNothing() throws {
        let stick = temporaryDirectory()
        #expect(try sounds(enabled: true, into: temporaryDirectory()).importSounds(from: stick) == nil)
        try #require(mkdir("\(stick)/HeyLook", 0o755) == 0)
        #expect(try sounds(enabled: false, into: temporaryDirectory()).importSounds(from: stick) == nil)
    }
}
