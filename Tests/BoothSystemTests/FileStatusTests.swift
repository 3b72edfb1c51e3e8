// FileStatusTests: what lstat says of a path: kind (a link not followed), size, modification time, identity.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct FileStatusTests {
    @Test func aFileAFolderAndALinkAreToldApartAndNothingIsNil() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/photo.jpg"
        try DurableFile().write(Array(repeating: 7, count: 1234), path: path)
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let file = try #require(FileStatus(path: path))
        #expect(file.kind == .regularFile && file.isRegularFile)
        #expect(file.size == 1234)
        #expect(file.modifiedSeconds == 1_700_000_000)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        #expect(file.identity == FileIdentity(descriptor: FileDescriptor(rawValue: fd)))
        #expect(FileStatus(path: directory)?.kind == .directory)
        #expect(symlink(path, "\(directory)/link.jpg") == 0)
        let link = try #require(FileStatus(path: "\(directory)/link.jpg"))
        #expect(link.kind == .symbolicLink && !link.isRegularFile)
        #expect(FileStatus(path: "\(directory)/none") == nil)
    }
}
