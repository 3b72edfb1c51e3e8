// FileOperationsTests: the real calls' fallbacks where a file system lacks renameat2 or links.
import BoothTestSupport
import Glibc
import Testing

@testable import BoothSystem

@Suite struct FileOperationsTests {
    /// Without renameat2 the no-replace rename falls back to link + unlink: a name already taken stays
    /// as it was (EEXIST), never replaced; a free name gets the file. One fallback serves both forms:
    /// names relative to a folder's descriptor (a stick export) and paths (`AT_FDCWD`: the store).
    @Test(arguments: [false, true])
    func theFallbackRenameNeverReplacesAFile(relativeToAFolder: Bool) throws {
        let directory = temporaryDirectory()
        try DurableFile().write([1], directory: directory, name: ".new.partial", temporaryName: ".a")
        try DurableFile().write([2], directory: directory, name: "photo.jpg", temporaryName: ".b")
        let folder = relativeToAFolder ? open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD
        defer { if relativeToAFolder { close(folder) } }
        func rename(_ from: String, _ to: String) -> Int32 {
            func name(_ file: String) -> String { relativeToAFolder ? file : "\(directory)/\(file)" }
            return SystemFileOperations.renameNoReplaceWithoutRenameat2(folder, name(from), name(to))
        }
        #expect(rename(".new.partial", "photo.jpg") == -1)
        #expect(errno == EEXIST)
        #expect(readFile("\(directory)/photo.jpg") == [2])
        #expect(readFile("\(directory)/.new.partial") == [1])
        #expect(rename(".new.partial", "free.jpg") == 0)
        #expect(readFile("\(directory)/free.jpg") == [1])
        #expect(readFile("\(directory)/.new.partial") == nil)
    }
}
