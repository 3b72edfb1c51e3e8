// DirectoryWatchTests: inotify names what appeared, moved and went in a folder.
import BoothTestSupport
import Glibc
import Testing

@testable import BoothSystem

@Suite struct DirectoryWatchTests {
    @Test func aRenameIntoTheFolderAndADeletionAreNamed() throws {
        let folder = temporaryDirectory()
        let watch = try DirectoryWatch(folder)
        #expect(try watch.changes().names.isEmpty)
        // The booth's save: a temp name written, then renamed to the photo's name.
        let temporary = "\(folder)/.HeyLook_undated_000001.jpg.partial"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        #expect(fd >= 0)
        close(fd)
        #expect(rename(temporary, "\(folder)/HeyLook_undated_000001.jpg") == 0)
        #expect(unlink("\(folder)/HeyLook_undated_000001.jpg") == 0)
        let (names, overflowed) = try watch.changes()
        #expect(!overflowed)
        #expect(names.contains("HeyLook_undated_000001.jpg"))
        #expect(names.filter { $0 == "HeyLook_undated_000001.jpg" }.count == 2, "moved in, then deleted: \(names)")
        #expect(try watch.changes().names.isEmpty, "every event was read")
    }

    @Test func aFolderThatDoesNotExistIsAClearError() {
        #expect(throws: SystemError.self) { try DirectoryWatch("/nonexistent/heylook-photos") }
    }

    /// Events with padded names, one without a name, and a truncated last one.
    @Test func theEventBufferIsParsedByItsLengths() {
        func event(mask: UInt32, name: String, padTo: Int) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in 0..<4 { bytes[4 + i] = UInt8(truncatingIfNeeded: mask >> (8 * UInt32(i))) }
            for i in 0..<4 { bytes[12 + i] = UInt8(truncatingIfNeeded: UInt32(padTo) >> (8 * UInt32(i))) }
            return bytes + Array(name.utf8) + [UInt8](repeating: 0, count: padTo - name.utf8.count)
        }
        let buffer =
            event(mask: UInt32(IN_MOVED_TO), name: "a.jpg", padTo: 16)
            + event(mask: UInt32(IN_Q_OVERFLOW), name: "", padTo: 0)
            + event(mask: UInt32(IN_DELETE), name: "bb.jpg", padTo: 32) + [1, 2, 3]
        let parsed = DirectoryWatch.parse(buffer[...])
        #expect(parsed.names == ["a.jpg", "bb.jpg"])
        #expect(parsed.overflowed)
    }
}
