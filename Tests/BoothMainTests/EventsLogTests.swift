import BoothCore
import BoothTestSupport
import CBoothSys
import Glibc
import Testing

@testable import BoothMain

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
        let text = String(decoding: readFile(path) ?? [], as: UTF8.self)
        #expect(
            text == """
                {"t_us":1,"type":"input","input":"buttonPressed"}
                {"t_us":2,"type":"soundStarted","purpose":"attention"}

                """)
        log.flush()
        #expect(String(decoding: readFile(path) ?? [], as: UTF8.self) == text)
    }

    @Test func stringsAreQuotedAsJSON() {
        #expect(EventsLog.quoted("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }
}
