// Tests for SoundLibrary: loading a folder file by file and importing by copy, never following links.

import BoothTestSupport
import Foundation
import Testing

@testable import SoundOutput

@Suite struct SoundLibraryTests {
    typealias F = WAVFixtures

    /// A folder with two good sounds and a selection of bad ones.
    func mixedFolder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write(F.pcm16([1, 2, 3]), to: "Quack.wav")
        try folder.write(F.pcm16([4, 5, 6, 7], rate: 44_100, channels: 2), to: "Moo.WAV")
        try folder.write(Array("not audio".utf8), to: "broken.wav")
        try folder.write(
            F.riff(
                F.chunk("fmt ", F.formatBody(tag: 3, channels: 1, rate: 48_000, bits: 32))
                    + F.chunk("data", [0, 0, 0, 0])), to: "float.wav")
        try folder.write(F.pcm16([1, 2]), to: "._Quack.wav")  // macOS resource fork: skipped
        try folder.write(Array("hello".utf8), to: "README.txt")  // not a .wav: skipped
        try FileManager.default.createSymbolicLink(
            atPath: "\(folder.path)/link.wav", withDestinationPath: "\(folder.path)/Quack.wav")
        try FileManager.default.createDirectory(atPath: "\(folder.path)/folder.wav", withIntermediateDirectories: false)
        return folder
    }

    @Test func loadKeepsGoodSoundsAndExplainsBadOnes() throws {
        let folder = try mixedFolder()
        let result = SoundLibrary.load(folder: folder.path)
        #expect(result.sounds.map(\.name) == ["Moo", "Quack"])
        #expect(result.sounds[1].buffer.samples == [1, 2, 3])
        #expect(result.sounds[0].buffer.channels == 2)
        let reasons = Dictionary(uniqueKeysWithValues: result.rejections.map { ($0.file, $0.reason) })
        #expect(reasons["broken.wav"] == .notWAV)
        #expect(reasons["float.wav"] == .unsupportedEncoding("32-bit floating point"))
        #expect(reasons["link.wav"] == .notRegularFile)
        #expect(reasons["folder.wav"] == .notRegularFile)
        #expect(reasons.count == 4)
    }

    @Test func missingFolderIsEmptyNotAnError() {
        let result = SoundLibrary.load(folder: "/tmp/heylook-no-such-folder-\(UInt32.random(in: 0...UInt32.max))")
        #expect(result.sounds.isEmpty && result.rejections.isEmpty)
    }

    @Test func oversizedFileIsRefusedWithoutReadingIt() throws {
        let folder = try TemporaryFolder()
        try folder.write([UInt8](repeating: 0, count: WAVDecoder.maximumBytes + 10), to: "huge.wav")
        let result = SoundLibrary.load(folder: folder.path)
        #expect(
            result.rejections.map(\.reason) == [
                .tooLarge(bytes: WAVDecoder.maximumBytes + 10, limit: WAVDecoder.maximumBytes)
            ])
    }

    @Test func importCopiesOnlyValidRegularFiles() throws {
        let stick = try mixedFolder()
        let sounds = try TemporaryFolder()
        try sounds.write(F.pcm16([9]), to: "Quack.wav")  // replaced by the import
        let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path)
        #expect(result.imported == ["Moo.WAV", "Quack.wav"])
        #expect(result.rejections.count == 4)
        let present = try FileManager.default.contentsOfDirectory(atPath: sounds.path).sorted()
        #expect(present == ["Moo.WAV", "Quack.wav"], "no temporary files or links left behind")
        #expect(try sounds.read("Quack.wav") == F.pcm16([1, 2, 3]))
        var info = stat()
        #expect(lstat("\(sounds.path)/Quack.wav", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(SoundLibrary.load(folder: sounds.path).sounds.map(\.name) == ["Moo", "Quack"])
    }

    /// Fail each call of an import in turn (every kind the seam has: listing the stick, stat, reading,
    /// writing, fsync, rename ...) with EIO: the failing file is reported with that error, the others are
    /// imported, the sounds folder holds each sound whole (the old or the new one) and no temporary file,
    /// and the next import completes.
    @Test(arguments: StickFaults.kinds)
    func anImportFailingAtAnyStepKeepsEverySoundWhole(operation: String) throws {
        let stick = try TemporaryFolder()
        let (quack, moo) = (F.pcm16([1, 2, 3]), F.pcm16([4, 5, 6, 7], rate: 44_100, channels: 2))
        try stick.write(quack, to: "Quack.wav")
        try stick.write(moo, to: "Moo.wav")
        var n = 1
        while true {
            let sounds = try TemporaryFolder()
            try sounds.write(F.pcm16([9]), to: "Quack.wav")  // an older Quack, replaced only whole
            let faults = StickFaults(failing: operation, at: n, with: EIO)
            let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path, operations: faults)
            if faults.fired && result.imported.count < 2 {
                #expect(result.rejections.count == 1 || result.imported.isEmpty, "\(operation) #\(n): \(result)")
                #expect(
                    result.rejections.allSatisfy { "\($0)".contains("EIO") || "\($0)".contains("input/output") },
                    "\(operation) #\(n): \(result.rejections)")
            } else {
                #expect(result.imported == ["Moo.wav", "Quack.wav"], "\(operation) #\(n): \(result)")
            }
            let present = try FileManager.default.contentsOfDirectory(atPath: sounds.path).sorted()
            #expect(present.allSatisfy { !$0.hasPrefix(".") }, "\(operation) #\(n): left \(present)")
            #expect([F.pcm16([9]), quack].contains(try sounds.read("Quack.wav")), "\(operation) #\(n)")
            if present.contains("Moo.wav") { #expect(try sounds.read("Moo.wav") == moo, "\(operation) #\(n)") }
            let again = SoundLibrary.importSounds(from: stick.path, into: sounds.path)
            #expect(again.imported == ["Moo.wav", "Quack.wav"] && again.rejections.isEmpty)
            if !faults.fired { break }
            n += 1
        }
        let made = ["open", "read", "write", "fsync", "rename", "close", "stat", "list", "unlink"]
        #expect(n > 1 || !made.contains(operation), "the import's \(operation) calls bypass the seam")
    }

    @Test func aStickWithTooManySoundsGivesTheFirstAndSaysSo() throws {
        let stick = try TemporaryFolder()
        let sounds = try TemporaryFolder()
        for name in ["c.wav", "a.wav", "b.wav"] { try stick.write(F.pcm16([1, 2]), to: name) }
        let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path, limit: 2)
        #expect(result.imported == ["a.wav", "b.wav"])
        #expect(result.rejections == [SoundFileError(file: "c.wav", reason: .tooMany(limit: 2))])
        #expect(result.rejections[0].description.contains("at most 2 sounds are imported from one stick"))
    }

    @Test func importIntoMissingFolderReportsCopyFailure() throws {
        let stick = try TemporaryFolder()
        try stick.write(F.pcm16([1]), to: "a.wav")
        let result = SoundLibrary.importSounds(from: stick.path, into: "\(stick.path)/missing")
        #expect(result.imported.isEmpty)
        #expect(
            result.rejections == [SoundFileError(file: "a.wav", reason: .cannotCopy(operation: "open", errno: ENOENT))])
        #expect(
            result.rejections[0].description.contains(
                "could not be copied into the sounds folder (open: No such file or directory (ENOENT))"))
    }

    @Test func unreadableSourceFolderIsReported() {
        let result = SoundLibrary.importSounds(from: "/tmp/heylook-no-stick", into: "/tmp")
        #expect(result.rejections.map(\.reason) == [.unreadable(operation: "opendir", errno: ENOENT)])
    }
}
