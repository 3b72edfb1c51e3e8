// ExportWorkerTests: a stick's sounds folder imported before its export.
import BoothTestSupport
import Glibc
import Testing

@testable import BoothMain

@Suite struct ExportWorkerTests {
    func put(_ bytes: [UInt8], _ path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func aSticksSoundsAreImportedDecodedAndTheBadOnesNamed() throws {
        let stick = temporaryDirectory()
        let sounds = temporaryDirectory() + "/sounds"
        try #require(mkdir("\(stick)/sounds", 0o755) == 0)
        put(WAVFixtures.pcm16([Int16](repeating: 1000, count: 4800)), "\(stick)/sounds/Beep.wav")
        put(Array("RIFF\u{10}\0\0\0WAVEjunk".utf8), "\(stick)/sounds/Broken.wav")
        put([1, 2, 3], "\(stick)/sounds/notes.txt")
        let imported = try #require(ExportWorker.importSounds(from: "\(stick)/sounds", into: sounds))
        #expect(imported.sounds.map(\.name) == ["Beep"])
        #expect(imported.sounds.first?.buffer.durationNanoseconds == 100_000_000)
        #expect(imported.rejections.count == 1)
        #expect(imported.rejections.first?.hasPrefix("Sound 'Broken.wav'") == true)
        var info = stat()
        #expect(stat("\(sounds)/Beep.wav", &info) == 0, "the sounds folder was made and holds the sound")
        #expect(stat("\(sounds)/Broken.wav", &info) != 0)
    }

    @Test func aStickWithoutASoundsFolderImportsNothingAndSaysNothing() {
        #expect(ExportWorker.importSounds(from: "\(temporaryDirectory())/sounds", into: temporaryDirectory()) == nil)
    }
}
