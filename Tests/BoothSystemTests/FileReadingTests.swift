// FileReadingTests: the one read-to-the-end loop: chunks, limits, EINTR, errors.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct FileReadingTests {
    /// A descriptor reading `bytes` (an unlinked temporary file).
    func pipe(with bytes: [UInt8]) -> FileDescriptor {
        var template = Array("/tmp/heylook-reading-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        #expect(fd >= 0)
        unlink(template)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        lseek(fd, 0, SEEK_SET)
        return FileDescriptor(rawValue: fd)
    }

    @Test func readsEveryChunkToTheEnd() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let fd = pipe(with: bytes)
        defer { _ = SystemFileOperations().close(fd) }
        #expect(try FileReading.readAll(fd, limit: 1 << 20) == bytes)
    }

    @Test func moreThanTheLimitIsAnError() {
        let fd = pipe(with: [UInt8](repeating: 1, count: 70_000))
        defer { _ = SystemFileOperations().close(fd) }
        #expect(throws: FileReading.Failure.tooLarge(limit: 69_999)) { try FileReading.readAll(fd, limit: 69_999) }
        #expect(FileReading.Failure.tooLarge(limit: 4 << 20).description == "larger than 4 MiB")
    }

    @Test func exactlyTheLimitIsFine() throws {
        let fd = pipe(with: [UInt8](repeating: 2, count: 65_536 + 10))
        defer { _ = SystemFileOperations().close(fd) }
        #expect(try FileReading.readAll(fd, limit: 65_546).count == 65_546)
    }

    @Test func anInterruptedReadIsRetriedAndAFailedOneNamed() throws {
        var calls = 0
        let read: (FileDescriptor, UnsafeMutableRawBufferPointer) -> Int = { _, buffer in
            calls += 1
            switch calls {
            case 1:
                errno = EINTR
                return -1
            case 2:
                buffer[0] = 42
                return 1
            default: return 0
            }
        }
        #expect(try FileReading.readAll(FileDescriptor(rawValue: -1), limit: 10, read: read) == [42])
        #expect(calls == 3)
        #expect(throws: FileReading.Failure.read(errno: EBADF)) {
            try FileReading.readAll(FileDescriptor(rawValue: -1), limit: 10)
        }
        #expect(FileReading.Failure.read(errno: EIO).description == "Input/output error (EIO)")
    }

    @Test func aWholeFileIsReadByPathAndAMissingOneIsNil() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/small"
        try DurableFile().write(Array("set_to 2\n".utf8), path: path)
        #expect(try FileReading.contents(of: path, limit: 64) == Array("set_to 2\n".utf8))
        #expect(try FileReading.contents(of: "\(directory)/none", limit: 64) == nil)
        #expect(throws: FileReading.Failure.tooLarge(limit: 4)) { try FileReading.contents(of: path, limit: 4) }
        #expect(throws: FileReading.Failure.read(errno: EISDIR)) { try FileReading.contents(of: directory, limit: 4) }
        #expect(throws: FileReading.Failure.open(errno: ENOTDIR)) {
            try FileReading.contents(of: "\(path)/inside", limit: 4)
        }
        #expect(FileReading.Failure.open(errno: EACCES).description == "Permission denied (EACCES)")
    }

    /// A file's text, "" for a missing one, and a failure as the system error of reading its path.
    @Test func aFilesTextIsReadByPathAndAMissingOneIsEmpty() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/lines"
        try DurableFile().write(Array("a\tb\n".utf8), path: path)
        #expect(try FileReading.text(of: path, limit: 64) == "a\tb\n")
        #expect(try FileReading.text(of: "\(directory)/none", limit: 64) == "")
        let error = #expect(throws: SystemError.self) { try FileReading.text(of: directory, limit: 64) }
        #expect(error?.errno == EISDIR)
        #expect(error.map { "\($0)" }?.contains(directory) == true, "\(String(describing: error))")
    }

    @Test func aFailureBecomesTheSystemErrorOfReadingItsPath() {
        let denied = FileReading.Failure.open(errno: EACCES).systemError(reading: "/p")
        #expect(denied == SystemError("open", "/p", errno: EACCES))
        let failed = FileReading.Failure.read(errno: EIO).systemError(reading: "/p")
        #expect(failed == SystemError("read", "/p", errno: EIO))
        let large = FileReading.Failure.tooLarge(limit: 4 << 20).systemError(reading: "/p")
        #expect(large == SystemError("read", "/p", errno: EFBIG, detail: "larger than 4 MiB"))
        #expect(large.description.hasPrefix("read /p: larger than 4 MiB: "))
    }

    @Test func aFileIsHandedOverChunkByChunkAndAMissingOneIsFalse() throws {
        let directory = temporaryDirectory()
        let path = "\(directory)/events"
        let bytes = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 * 13) }
        try DurableFile().write(bytes, path: path)
        var chunks: [Int] = []
        var read: [UInt8] = []
        #expect(
            try FileReading.forEachChunk(of: path) {
                chunks.append($0.count)
                read += $0
            })
        #expect(read == bytes)
        #expect(chunks.allSatisfy { $0 <= 65_536 })
        let missing = try FileReading.forEachChunk(of: "\(directory)/none") { _ in Issue.record("no file, no chunk") }
        #expect(missing == false)
        #expect(throws: FileReading.Failure.read(errno: EISDIR)) {
            try FileReading.forEachChunk(of: directory) { _ in }
        }
    }
}
