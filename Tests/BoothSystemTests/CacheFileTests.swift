// CacheFileTests: a cache file replaced whole by a rename, nothing left under its temporary name, removed.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct CacheFileTests {
    @Test func aFileIsWrittenThenReplacedWholeAndRemoved() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/a.jpg"
        try CacheFile.write([1, 2, 3], to: path)
        #expect(try FileReading.contents(of: path, limit: 100) == [1, 2, 3])
        try CacheFile.write([4, 5], to: path)
        #expect(try FileReading.contents(of: path, limit: 100) == [4, 5])
        #expect(try FileReading.names(in: directory) == ["a.jpg"])
        #expect(CacheFile.remove(path))
        #expect(!CacheFile.remove(path))
        #expect(try FileReading.names(in: directory) == [])
    }

    /// A rename that fails (a folder where the file goes) leaves the old contents and no temporary file; a link
    /// planted at the temporary name is not followed (ELOOP), and what it points to is untouched.
    @Test func aFailedWriteLeavesNothingBehindAndALinkIsNeverFollowed() throws {
        let directory = temporaryDirectory()
        #expect(mkdir("\(directory)/a.jpg", 0o755) == 0)
        #expect(throws: SystemError("rename", "\(directory)/a.jpg", errno: EISDIR)) {
            try CacheFile.write([1], to: "\(directory)/a.jpg")
        }
        #expect(try FileReading.names(in: directory) == ["a.jpg"])
        try DurableFile().write([9], path: "\(directory)/target")
        #expect(symlink("\(directory)/target", "\(directory)/.b.jpg.partial") == 0)
        #expect(throws: SystemError("open", "\(directory)/.b.jpg.partial", errno: ELOOP)) {
            try CacheFile.write([1, 2], to: "\(directory)/b.jpg")
        }
        #expect(try FileReading.contents(of: "\(directory)/target", limit: 10) == [9])
        #expect(FileStatus(path: "\(directory)/b.jpg") == nil)
    }
}
