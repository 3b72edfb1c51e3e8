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

    /// A sound the booth has is never replaced by a stick's file of the same name (in any case); the stick's
    /// file is named with the fix. Mutation: the import writing with `replacing: true` (as it did) fails this.
    @Test func importCopiesOnlyValidRegularFilesAndNeverReplaces() throws {
        let stick = try mixedFolder()
        let sounds = try TemporaryFolder()
        try sounds.write(F.pcm16([9]), to: "quack.wav")  // the booth's own: kept
        let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path)
        #expect(result.imported == ["Moo.WAV"])
        #expect(result.rejections.count == 5)
        #expect(result.rejections.contains(SoundFileError(file: "Quack.wav", reason: .alreadyThere(sound: "Quack"))))
        let message = try #require(result.rejections.first { $0.file == "Quack.wav" }).description
        #expect(message.contains("already has a sound named 'Quack'") && message.contains("Fix: rename the file"))
        let present = try FileManager.default.contentsOfDirectory(atPath: sounds.path).sorted()
        #expect(present == ["Moo.WAV", "quack.wav"], "no temporary files or links left behind")
        #expect(try sounds.read("quack.wav") == F.pcm16([9]))
        var info = stat()
        #expect(lstat("\(sounds.path)/Moo.WAV", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(SoundLibrary.load(folder: sounds.path).sounds.map(\.name) == ["Moo", "quack"])
    }

    /// The stick's folder itself may not be a link. Mutation: opening it without `O_NOFOLLOW` fails this.
    @Test func aLinkedSourceFolderIsRefused() throws {
        let stick = try mixedFolder()
        let holder = try TemporaryFolder()
        try FileManager.default.createSymbolicLink(atPath: "\(holder.path)/sounds", withDestinationPath: stick.path)
        let sounds = try TemporaryFolder()
        let result = SoundLibrary.importSounds(from: "\(holder.path)/sounds", into: sounds.path)
        #expect(result.imported.isEmpty)
        // O_DIRECTORY | O_NOFOLLOW on a link: ENOTDIR.
        #expect(result.rejections.map(\.reason) == [.unreadable(operation: "opendir", errno: ENOTDIR)])
    }

    /// Fail each call of an import in turn (every kind the seam has: listing the stick, stat, reading,
    /// writing, fsync, rename ...) with EIO: the failing file is reported with that error, the others are
    /// imported, the sounds folder holds each sound whole (the booth's own untouched) and no temporary file,
    /// and the next import brings the rest.
    @Test(arguments: StickFaults.kinds)
    func anImportFailingAtAnyStepKeepsEverySoundWhole(operation: String) throws {
        let stick = try TemporaryFolder()
        let (quack, moo) = (F.pcm16([1, 2, 3]), F.pcm16([4, 5, 6, 7], rate: 44_100, channels: 2))
        try stick.write(quack, to: "Quack.wav")
        try stick.write(moo, to: "Moo.wav")
        var n = 1
        while true {
            let sounds = try TemporaryFolder()
            try sounds.write(F.pcm16([9]), to: "Own.wav")  // the booth's own sound: never touched
            let faults = StickFaults(failing: operation, at: n, with: EIO)
            let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path, operations: faults)
            if faults.fired && result.imported.count < 2 {
                #expect(!result.rejections.isEmpty, "\(operation) #\(n): \(result)")
                #expect(
                    result.rejections.allSatisfy { "\($0)".contains("EIO") || "\($0)".contains("input/output") },
                    "\(operation) #\(n): \(result.rejections)")
            } else {
                #expect(result.imported == ["Moo.wav", "Quack.wav"], "\(operation) #\(n): \(result)")
            }
            let present = try FileManager.default.contentsOfDirectory(atPath: sounds.path).sorted()
            #expect(present.allSatisfy { !$0.hasPrefix(".") }, "\(operation) #\(n): left \(present)")
            #expect(try sounds.read("Own.wav") == F.pcm16([9]), "\(operation) #\(n)")
            if present.contains("Quack.wav") { #expect(try sounds.read("Quack.wav") == quack, "\(operation) #\(n)") }
            if present.contains("Moo.wav") { #expect(try sounds.read("Moo.wav") == moo, "\(operation) #\(n)") }
            let again = SoundLibrary.importSounds(from: stick.path, into: sounds.path)
            #expect(Set(result.imported + again.imported) == ["Moo.wav", "Quack.wav"], "\(operation) #\(n)")
            #expect(again.rejections.allSatisfy { if case .alreadyThere = $0.reason { true } else { false } })
            if !faults.fired { break }
            n += 1
        }
        let made = ["open", "read", "write", "fsync", "rename", "close", "stat", "list", "unlink"]
        #expect(n > 1 || !made.contains(operation), "the import's \(operation) calls bypass the seam")
    }

    /// The cap counts the sounds the folder holds already. Mutation: counting only this stick's files (as the
    /// import did: "at most 20 a stick", so every stick added 20 more) fails this.
    @Test func theSoundsFolderNeverHoldsMoreThanItsCount() throws {
        let stick = try TemporaryFolder()
        let sounds = try TemporaryFolder()
        try sounds.write(F.pcm16([1]), to: "x.wav")
        for name in ["c.wav", "a.wav", "b.wav"] { try stick.write(F.pcm16([1, 2]), to: name) }
        let result = SoundLibrary.importSounds(
            from: stick.path, into: sounds.path, limits: SoundLibrary.ImportLimits(count: 2))
        #expect(result.imported == ["a.wav"])
        #expect(
            result.rejections == [
                SoundFileError(file: "b.wav", reason: .tooMany(limit: 2)),
                SoundFileError(file: "c.wav", reason: .tooMany(limit: 2)),
            ])
        #expect(result.rejections[0].description.contains("the booth keeps at most 2 sounds of its own"))
        let again = SoundLibrary.importSounds(
            from: stick.path, into: sounds.path, limits: SoundLibrary.ImportLimits(count: 2))
        #expect(again.imported.isEmpty, "a second stick (or the same again) adds nothing past the cap")
    }

    /// The bytes of the folder's sounds together stay within the cap, those there before included.
    @Test func theSoundsFolderNeverHoldsMoreThanItsBytes() throws {
        let stick = try TemporaryFolder()
        let sounds = try TemporaryFolder()
        let own = F.pcm16([Int16](repeating: 1, count: 1000))
        try sounds.write(own, to: "own.wav")
        let small = F.pcm16([1, 2])
        let large = F.pcm16([Int16](repeating: 2, count: 1000))
        try stick.write(large, to: "a.wav")
        try stick.write(small, to: "b.wav")
        let limits = SoundLibrary.ImportLimits(count: 20, bytes: own.count + small.count + 10)
        let result = SoundLibrary.importSounds(from: stick.path, into: sounds.path, limits: limits)
        #expect(result.imported == ["b.wav"])
        #expect(result.rejections == [SoundFileError(file: "a.wav", reason: .folderFull(limit: limits.bytes))])
        #expect(!FileManager.default.fileExists(atPath: "\(sounds.path)/a.wav"))
    }

    @Test func importIntoMissingFolderReportsCopyFailure() throws {
        let stick = try TemporaryFolder()
        try stick.write(F.pcm16([1]), to: "a.wav")
        let result = SoundLibrary.importSounds(from: stick.path, into: "\(stick.path)/missing")
        #expect(result.imported.isEmpty)
        #expect(
            result.rejections == [
                SoundFileError(file: "a.wav", reason: .cannotCopy(operation: "opendir", errno: ENOENT))
            ])
        #expect(
            result.rejections[0].description.contains(
                "could not be copied into the sounds folder (opendir: No such file or directory (ENOENT))"))
    }

    @Test func unreadableSourceFolderIsReported() {
        let result = SoundLibrary.importSounds(from: "/tmp/heylook-no-stick", into: "/tmp")
        #expect(result.rejections.map(\.reason) == [.unreadable(operation: "opendir", errno: ENOENT)])
    }
}
