// SystemErrorTests: a failed call reads "op subject: [detail: ]errno text (NAME)[ — fix]".
import BoothTestSupport
import Glibc
import Testing

@testable import BoothSystem

@Suite struct SystemErrorTests {
    @Test func errnoIsNamedWithTheFixForIt() {
        let error = SystemError("fsync", "/var/lib/heylook/photos/a.jpg", errno: ENOSPC)
        #expect(
            error.description
                == "fsync /var/lib/heylook/photos/a.jpg: No space left on device (ENOSPC)"
                + " — the disk is full: export and remove photos, or free space")
    }

    @Test func anErrnoWithNothingToAddHasNoFix() {
        #expect(
            SystemError("rename", "/s/a", errno: EXDEV).description == "rename /s/a: Invalid cross-device link (EXDEV)")
    }

    @Test func theOtherSidesDetailComesBeforeErrnoAndTheCallersFixWins() {
        let error = SystemError(
            "stop media-heylook-stick.mount", "/media/heylook/stick", errno: EACCES,
            detail: "org.freedesktop.DBus.Error.AccessDenied: denied", fix: "install the polkit rule")
        #expect(
            error.description
                == "stop media-heylook-stick.mount /media/heylook/stick: org.freedesktop.DBus.Error.AccessDenied: denied:"
                + " Permission denied (EACCES) — install the polkit rule")
    }

    @Test func aValueCallAnswersItsValueOrThrowsItsErrnoByName() throws {
        let directory = temporaryDirectory()
        let ops = SystemFileOperations()
        let fd = try ops.openFolder(directory)
        defer { _ = ops.close(fd) }
        #expect(try SystemError.checkValue("readdir", directory) { ops.names(in: fd) } == [])
        #expect(throws: SystemError("readdir", directory, errno: EBADF)) {
            try SystemError.checkValue("readdir", directory) { ops.names(in: FileDescriptor(rawValue: -1)) }
        }
        #expect(ops.mkdir("\(directory)/none/inside", 0o755) == -1)
        #expect(Errno.current == .noSuchFileOrDirectory)
        #expect(throws: SystemError("mkdir", directory, errno: Errno.fileExists.rawValue)) {
            try SystemError.check("mkdir", directory) { ops.mkdir(directory, 0o755) }
        }
    }
}
