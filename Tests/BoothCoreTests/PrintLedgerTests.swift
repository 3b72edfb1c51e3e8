// PrintLedgerTests: the print counts read from the ledger's text, and the limits' decisions.
import BoothCore
import Testing

struct PrintLedgerTests {
    @Test func countsEachPhotosPrintsSinceTheLastReset() {
        let ledger = PrintLedger(text: "a.jpg\nb.jpg\n-- reset\nb.jpg\nc.jpg\nb.jpg\n")
        #expect(ledger.total == 3)
        #expect(ledger.counts == ["b.jpg": 2, "c.jpg": 1])
        #expect(PrintLedger(text: "a.jpg\n-- reset\n").total == 0)
        #expect(PrintLedger().total == 0)
    }

    @Test func aLastLineCutShortByAPowerCutCountsAsItsPrint() {
        // The line is written after CUPS took the job: a cut one still stands for a print that was sent.
        let ledger = PrintLedger(text: "a.jpg\nb.j")
        #expect(ledger.total == 2)
    }

    @Test func theEventsLimitComesFirstThenThePhotos() {
        var ledger = PrintLedger()
        #expect(ledger.refusal(of: "a.jpg", perPhoto: 0, perEvent: 0) == nil)
        ledger.record("a.jpg")
        #expect(ledger.refusal(of: "a.jpg", perPhoto: 2, perEvent: 3) == nil)
        ledger.record("a.jpg")
        #expect(ledger.refusal(of: "a.jpg", perPhoto: 2, perEvent: 3) == .photo(name: "a.jpg", limit: 2))
        #expect(ledger.refusal(of: "b.jpg", perPhoto: 2, perEvent: 3) == nil)
        ledger.record("b.jpg")
        #expect(ledger.refusal(of: "c.jpg", perPhoto: 2, perEvent: 3) == .event(limit: 3))
        #expect(ledger.refusal(of: "a.jpg", perPhoto: 2, perEvent: 3) == .event(limit: 3))
        #expect(ledger.refusal(of: "c.jpg", perPhoto: 2, perEvent: 0) == nil, "0 is no limit")
        #expect(ledger.refusal(of: "a.jpg", perPhoto: 0, perEvent: 0) == nil, "0 is no limit")
    }

    @Test func aRefusalNamesTheLimitAndTheFix() {
        let photo = PrintLedger.Refusal.photo(name: "a.jpg", limit: 1).description
        #expect(photo.contains("a.jpg was printed 1 time already"))
        #expect(photo.contains("print.limit_per_photo"))
        #expect(photo.contains("sudo booth print reset"))
        let event = PrintLedger.Refusal.event(limit: 50).description
        #expect(event.contains("50 prints"))
        #expect(event.contains("print.limit_per_event"))
        #expect(event.contains("sudo booth print reset"))
    }

    @Test func theLinesItWritesReadBackWithTheirJobs() {
        let text =
            PrintLedger.line(for: "/p/a.jpg", job: 7) + PrintLedger.line(for: "/p/a.jpg", job: 8)
            + PrintLedger.resetLine + "\n" + PrintLedger.line(for: "/p/layouts/b-strip.jpg", job: 9)
        let ledger = PrintLedger(text: text)
        #expect(ledger.counts == ["b-strip.jpg": 1])
        // The jobs are a restarted booth's to follow, across resets too.
        #expect(ledger.recentJobs.map(\.job) == [7, 8, 9])
        #expect(ledger.recentJobs.last?.path == "/p/layouts/b-strip.jpg")
    }

    @Test func onlyTheLastJobsAreFollowedAndALineWithoutAJobCountsAlone() {
        let text = (1...30).map { PrintLedger.line(for: "/p/\($0).jpg", job: Int32($0)) }.joined() + "c.jpg\n"
        let ledger = PrintLedger(text: text)
        #expect(ledger.total == 31)
        #expect(ledger.recentJobs.map(\.job) == Array(11...30))
    }
}
