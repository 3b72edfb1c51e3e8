// FileToSendTests: a file opened for sendfile only when it is still the one listed.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

/// Faults planted and the tests that failed: O_NOFOLLOW dropped (the link), the identity or the size not compared
/// (replaced, shortened), the regular-file check dropped (a folder).
@Suite struct FileToSendTests {
    /// The identity of the file at `path`.
    static func identity(_ path: String) throws -> FileIdentity {
        var info = stat()
        try #require(lstat(path, &info) == 0)
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    @Test func theFileListedOpensAndAnyOtherIsRefused() throws {
        let folder = temporaryDirectory()
        let path = "\(folder)/a.jpg"
        try DurableFile().write([UInt8](repeating: 7, count: 100), path: path)
        let listed = try Self.identity(path)
        let fd = try FileToSend.open(path, identity: listed, end: 100)
        var byte: UInt8 = 0
        #expect(pread(fd.rawValue, &byte, 1, 99) == 1 && byte == 7)
        _ = SystemFileOperations().close(fd)

        #expect(throws: SystemError.self) { try FileToSend.open(path, identity: listed, end: 101) }
        #expect(symlink(path, "\(folder)/link.jpg") == 0)
        #expect(throws: SystemError("open", "\(folder)/link.jpg", errno: ELOOP)) {
            try FileToSend.open("\(folder)/link.jpg", identity: listed, end: 1)
        }
        let folderIdentity = try Self.identity(folder)
        let notAFile = #expect(throws: SystemError.self) {
            try FileToSend.open(folder, identity: folderIdentity, end: 0)
        }
        #expect(notAFile?.errno == EINVAL)
        // Replaced under the same name (a new inode): not the file listed.
        try DurableFile().write([UInt8](repeating: 8, count: 100), path: path, replacing: true)
        let replaced = #expect(throws: SystemError.self) { try FileToSend.open(path, identity: listed, end: 100) }
        #expect(replaced?.errno == ESTALE)
        #expect(replaced?.description.contains("replaced or shortened since it was listed") == true)
    }
}
