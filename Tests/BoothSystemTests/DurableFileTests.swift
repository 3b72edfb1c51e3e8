// DurableFileTests: crash-safe writes on a real folder, every step failed in turn through the fault seam.
import BoothCore
import BoothTestSupport
import Glibc
import Testing

@testable import BoothSystem

@Suite struct DurableFileTests {
    let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

    @Test func aWriteLeavesExactlyTheCompleteFile() throws {
        let dir = temporaryDirectory()
        try DurableFile().write(payload, directory: dir, name: "a.jpg", temporaryName: ".a.partial")
        #expect(readFile("\(dir)/a.jpg") == payload)
        #expect(try folderNames(dir) == ["a.jpg"])
    }

    /// A spliced copy is its head and then the file from byte `skip` on, wherever the file's offset was; its digest
    /// is the same read without writing.
    @Test func aSplicedCopyIsTheHeadThenTheFileFromSkipOn() throws {
        let dir = temporaryDirectory()
        try DurableFile().write(payload, directory: dir, name: "photo.jpg", temporaryName: ".photo.partial")
        let files = SystemFileOperations()
        let source = try #require(files.open("\(dir)/photo.jpg", O_RDONLY, 0))
        defer { _ = files.close(source) }
        #expect(files.lseek(source, 5, SEEK_SET) == 5)
        let contents = DurableFile.Contents.spliced(
            head: [9, 8, 7], descriptor: source, skip: 1000, path: "\(dir)/photo.jpg")
        let fd = try files.openFolder(dir)
        defer { _ = files.close(fd) }
        let written = try DurableFile().write(
            contents, into: fd, directoryPath: dir, name: "copy.jpg", temporaryName: ".copy.partial", verify: true)
        let expected = [9, 8, 7] + payload[1000...]
        #expect(readFile("\(dir)/copy.jpg") == Array(expected))
        #expect(written.size == Int64(expected.count))
        #expect(try DurableFile.digest(of: contents, operations: SystemFileOperations()) == written)
    }

    /// A secret (NetworkManager reads a profile only when nobody but root can read it) is never readable by others,
    /// not even while it is written.
    @Test func aFileGetsTheModeAskedFor() throws {
        let dir = temporaryDirectory()
        try DurableFile().write(payload, directory: dir, name: "a.key", temporaryName: ".a.partial", mode: 0o600)
        try DurableFile().write(payload, directory: dir, name: "b.txt", temporaryName: ".b.partial")
        var info = stat()
        #expect(stat("\(dir)/a.key", &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat("\(dir)/b.txt", &info) == 0 && info.st_mode & 0o777 == 0o644)
    }

    /// A whole path is split into its folder and name: the same crash-safe write, and a bare name goes in the
    /// current folder.
    @Test func aPathIsWrittenInItsFolder() throws {
        let dir = temporaryDirectory()
        try DurableFile().write(payload, path: "\(dir)/c.key", mode: 0o600)
        #expect(readFile("\(dir)/c.key") == payload)
        #expect(try folderNames(dir) == ["c.key"])
        #expect(throws: SystemError.self) { try DurableFile().write([1], path: "\(dir)/c.key") }
        try DurableFile().write([1], path: "\(dir)/c.key", replacing: true)
        #expect(readFile("\(dir)/c.key") == [1])
    }

    @Test func anExistingFileIsNeverReplaced() throws {
        let dir = temporaryDirectory()
        try DurableFile().write([1, 2, 3], directory: dir, name: "a.jpg", temporaryName: ".a.partial")
        #expect(throws: SystemError.self) {
            try DurableFile().write(payload, directory: dir, name: "a.jpg", temporaryName: ".a.partial")
        }
        #expect(readFile("\(dir)/a.jpg") == [1, 2, 3])
        #expect(try folderNames(dir) == ["a.jpg"])
    }

    /// Fail every step in turn (every Nth write, fsync, rename, open, close) with EIO and ENOSPC:
    /// the file is complete or absent, never partial, and no temp file is left.
    @Test(arguments: ["open", "write", "fsync", "close", "rename"], [EIO, ENOSPC])
    func aFailureAtAnyStepLeavesNothingPartial(operation: String, error: Int32) throws {
        var n = 1
        while true {
            let dir = temporaryDirectory()
            let ops = StickFaults(failing: operation, at: n, with: error)
            var threw = false
            do {
                try DurableFile(operations: ops).write(
                    payload, directory: dir, name: "a.jpg", temporaryName: ".a.partial")
            } catch {
                threw = true
                #expect(error.errno == ops.error || error.errno == EIO)
            }
            let names = try folderNames(dir)
            if threw {
                #expect(names.isEmpty, "\(operation) #\(n): left \(names)")
            } else {
                #expect(names == ["a.jpg"])
                #expect(readFile("\(dir)/a.jpg") == payload)
            }
            if !ops.fired { break }
            n += 1
        }
        #expect(n > 1)
    }
}

@Suite struct DurableFileOrderTests {
    /// FAT cannot rename atomically (vfat_rename adds the new folder entry empty, removes the old one
    /// and leaves the first cluster and size to the file's write-back): the folder is flushed before
    /// the renamed file, so a pulled stick holds the temp entry, or an empty final one, or the whole
    /// file, never two entries on the same clusters (which the other order left in the rig's usb-pull
    /// scenario). The clusters are reserved and flushed before the data (the first fsync), so a
    /// pulled copy never leaves a chain ending in a free cluster.
    @Test func theFolderIsSyncedBeforeTheRenamedFile() throws {
        let dir = temporaryDirectory()
        let fd = try SystemFileOperations().openFolder(dir)
        defer { _ = SystemFileOperations().close(fd) }
        let ops = RecordingFileOperations()
        ops.name(fd, "<folder>")
        try DurableFile(operations: ops).write(
            .bytes([1, 2, 3]), into: fd, directoryPath: dir, name: "a.jpg", temporaryName: ".a.jpg.partial",
            verify: true)
        #expect(
            ops.calls == [
                "fsync .a.jpg.partial", "fsync .a.jpg.partial", "rename .a.jpg.partial a.jpg", "fsync <folder>",
                "fsync a.jpg",
            ])
        #expect(readFile("\(dir)/a.jpg") == [1, 2, 3])
    }

    /// A replaced file (the stick's manifest) is held open from before the rename until the new one
    /// is flushed under its name: FAT frees its clusters on the last close, so they are never free on
    /// the device while the name still points at them.
    @Test func aReplacedFileStaysOpenUntilTheNewOneIsDurable() throws {
        let dir = temporaryDirectory()
        let fd = try SystemFileOperations().openFolder(dir)
        defer { _ = SystemFileOperations().close(fd) }
        let file = DurableFile()
        try file.write(.bytes([1]), into: fd, directoryPath: dir, name: "m.txt", temporaryName: ".m.txt.partial")
        let ops = RecordingFileOperations(recordsCloses: true)
        ops.name(fd, "<folder>")
        try DurableFile(operations: ops).write(
            .bytes([2, 3]), into: fd, directoryPath: dir, name: "m.txt", temporaryName: ".m.txt.partial",
            replacing: true)
        let calls = ops.calls
        #expect(
            calls == [
                "fsync .m.txt.partial", "fsync .m.txt.partial", "close .m.txt.partial",
                "replace .m.txt.partial m.txt", "fsync <folder>", "fsync m.txt", "close m.txt", "close m.txt",
            ])
        #expect(readFile("\(dir)/m.txt") == [2, 3])
    }
}
