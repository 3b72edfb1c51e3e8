// FileOperationsTests: the real calls' fallbacks where a file system lacks renameat2 or links.
import BoothTestSupport
import Glibc
import Testing

@testable import BoothSystem

@Suite struct FileOperationsTests {
    /// Without renameat2 the no-replace rename falls back to link + unlink: a name already taken stays
    /// as it was (EEXIST), never replaced; a free name gets the file.
    @Test func theFallbackRenameNeverReplacesAFile() throws {
        let directory = temporaryDirectory()
        let (from, to) = ("\(directory)/.new.partial", "\(directory)/photo.jpg")
        try DurableFile().write([1], directory: directory, name: ".new.partial", temporaryName: ".a")
        try DurableFile().write([2], directory: directory, name: "photo.jpg", temporaryName: ".b")
        #expect(SystemFileOperations.renameNoReplaceWithoutRenameat2(from, to) == -1)
        #expect(errno == EEXIST)
        #expect(readFile(to) == [2])
        #expect(readFile(from) == [1])
        #expect(SystemFileOperations.renameNoReplaceWithoutRenameat2(from, "\(directory)/free.jpg") == 0)
        #expect(readFile("\(directory)/free.jpg") == [1])
        #expect(readFile(from) == nil)
    }
}
