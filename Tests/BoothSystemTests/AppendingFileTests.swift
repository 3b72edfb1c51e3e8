// AppendingFileTests: bytes written whole at the file's end, or the failure of the write that stopped them.
import BoothSystem
import BoothTestSupport
import Glibc
import Testing

@Suite struct AppendingFileTests {
    @Test func everythingIsWrittenAtTheEnd() throws {
        let path = temporaryDirectory() + "/ledger.txt"
        let file = try AppendingFile(appendingTo: path, mode: 0o644)
        try file.writeAll(Array("one\n".utf8), path: path)
        try file.writeAll(Array("two\n".utf8), path: path)
        #expect(try FileReading.text(of: path, limit: 100) == "one\ntwo\n")
    }

    /// /dev/full refuses every write with ENOSPC: the failure is that write's, named with the path.
    @Test func aFullDeviceIsToldAsNoSpace() throws {
        let file = try AppendingFile(appendingTo: "/dev/full", mode: 0o644)
        #expect(throws: SystemError("write", "/dev/full", errno: ENOSPC)) {
            try file.writeAll(Array("line\n".utf8), path: "/dev/full")
        }
    }
}
