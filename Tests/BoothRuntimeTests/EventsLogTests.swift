// EventsLogTests: the events file, its lines and its rotation.
import BoothCore
import BoothTestSupport
import BoothTime
import CBoothSys
import Dispatch
import Glibc
import Testing

@testable import BoothRuntime

@Suite struct EventsLogTests {
    /// Records wait in memory until the loop flushes them after its callbacks: a press's sound is
    /// handed to ALSA before anything is written.
    @Test func recordsAreWrittenOnlyWhenFlushed() throws {
        let path = "\(temporaryDirectory())/events.jsonl"
        let log = try EventsLog(path: path)
        log.record("input", at: Instant(nanoseconds: 1_000), [("input", .string("buttonPressed"))])
        log.record("soundStarted", at: Instant(nanoseconds: 2_000), [("purpose", .string("attention"))])
        #expect(readFile(path) == [])
        log.flush()
        log.sync()
        let text = String(decoding: readFile(path) ?? [], as: UTF8.self)
        #expect(
            text == """
                {"t_us":1,"type":"input","input":"buttonPressed"}
                {"t_us":2,"type":"soundStarted","purpose":"attention"}

                """)
        log.flush()
        log.sync()
        #expect(String(decoding: readFile(path) ?? [], as: UTF8.self) == text)
    }

    /// The loop never writes the file itself: with the events going to a pipe nobody reads, full after 64 KiB,
    /// every flush still returns at once, and once the pipe is read every record arrives, in order. Mutation:
    /// writing in `flush()` (as the loop did, held 200 ms on the rig's 9p share) leaves the flushes waiting until
    /// the pipe is read, and this fails after 30 s.
    @Test func aFlushNeverWaitsForTheFile() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        nonisolated(unsafe) let log = try EventsLog(path: "/proc/self/fd/\(ends[1])")
        close(ends[1])
        let count = 3000  // About 110 KiB: more than the pipe holds.
        let flushed = DispatchSemaphore(value: 0)
        DispatchQueue(label: "heylook.test.loop").async {
            for i in 0..<count {
                log.record("input", at: Instant(nanoseconds: Int64(i) * 1000), [("input", .string("knobTurned"))])
                if i % 100 == 99 { log.flush() }
            }
            log.flush()
            flushed.signal()
        }
        let returned = flushed.wait(timeout: .now() + 30) == .success
        #expect(returned, "a flush waited for the full pipe")
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while received.filter({ $0 == UInt8(ascii: "\n") }).count < count {
            let n = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            received += buffer[..<n]
        }
        if !returned { flushed.wait() }
        log.sync()
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.enumerated().allSatisfy { EventRecord(line: $1)?.time == Int64($0) })
    }

    @Test func stringsAreQuotedAsJSON() {
        #expect(EventRecord.quoted("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }

    /// The service's file: appended to across starts, rotated at half the limit into `.1`, so the two
    /// together stay near the limit and the newest events are always kept.
    @Test func aRotatedFileStaysNearItsLimitAndKeepsTheNewest() throws {
        let path = "\(temporaryDirectory())/events.jsonl"
        for run in 0..<3 {
            let log = try EventsLog(rotating: path, limit: 4096)
            for i in 0..<100 {
                log.record("input", at: Instant(nanoseconds: Int64(i) * 1000), [("run", .int(Int64(run)))])
                log.flush()
                log.sync()
            }
        }
        let current = try #require(readFile(path))
        let older = try #require(readFile(path + ".1"))
        let line = #"{"t_us":99,"type":"input","run":2}"# + "\n"
        #expect(current.count + older.count <= 4096 + line.utf8.count * 2)
        #expect(String(decoding: current, as: UTF8.self).hasSuffix(line))
        var stats = EventStats()
        for text in [older, current] {
            for part in String(decoding: text, as: UTF8.self).split(separator: "\n") { stats.add(line: part) }
        }
        #expect(stats.unreadable == 0)
        #expect(stats.records > 50)
    }

    /// The events file after a start on `left` (what a power cut left there): a rotating log opened on it, one
    /// `ready` record flushed and written.
    func fileAfterAStart(on left: [UInt8]) throws -> [UInt8] {
        let path = "\(temporaryDirectory())/events.jsonl"
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        _ = left.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let log = try EventsLog(rotating: path, limit: 1 << 20)
        log.record("ready", at: Instant(nanoseconds: 5_000))
        log.flush()
        log.sync()
        return readFile(path) ?? []
    }

    /// After a power cut the file may end inside a line: the next start ends it, so only that one line
    /// is lost and the first new record reads.
    @Test func aLineCutShortIsEndedBeforeNewRecords() throws {
        let bytes = try fileAfterAStart(on: Array("{\"t_us\":1,\"type\":\"rea".utf8))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(EventRecord(line: lines[0]) == nil)
        #expect(EventRecord(line: lines[1])?.type == "ready")
    }

    /// What ext4 leaves after a power cut: the file's new size on the card, its last blocks not, so it ends in
    /// zero bytes (the rig's `system-power-off` found 'binary file matches' in the events file). The next start
    /// cuts them off and ends the cut line: the file is text again, every whole record reads. Mutation: without
    /// the cut, the zeros stay in the file as a line of their own.
    @Test(arguments: [0, 70_000]) func zeroBytesAPowerCutLeftAreCutOff(zeros: Int) throws {
        let text = Array("{\"t_us\":1,\"type\":\"ready\"}\n{\"t_us\":2,\"type\":\"sta".utf8)
        let bytes = try fileAfterAStart(on: text + [UInt8](repeating: 0, count: zeros + 5000))
        #expect(!bytes.contains(0))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(EventRecord(line: lines[0])?.type == "ready" && EventRecord(line: lines[1]) == nil)
        #expect(EventRecord(line: lines[2])?.type == "ready")
    }

    /// A file of nothing but zero bytes is emptied.
    @Test func aFileOfZeroBytesIsEmptied() throws {
        let bytes = try fileAfterAStart(on: [UInt8](repeating: 0, count: 100_000))
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1 && EventRecord(line: lines[0])?.type == "ready")
    }

    @Test func statsReadFilesInPiecesAndCountWhatIsNotARecord() throws {
        let path = "\(temporaryDirectory())/events.jsonl"
        var text = String(repeating: #"{"t_us":1,"type":"photoDiscarded","path":"/p"}"# + "\n", count: 3000)
        text += "{\"t_us\":2,\"type\":\"" + String(repeating: "x", count: 100_000) + "\"}\n"
        text += #"{"t_us":3,"type":"photoDiscarded"}"#  // no newline: the last line of a cut file
        let fd = open(path, O_WRONLY | O_CREAT, 0o644)
        _ = text.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        var stats = EventStats()
        #expect(try EventsLog.readLines(path, into: &stats))
        #expect(stats.discarded == 3001)
        #expect(stats.unreadable == 1)
        #expect(try EventsLog.readLines(path + ".missing", into: &stats) == false)
    }
}
