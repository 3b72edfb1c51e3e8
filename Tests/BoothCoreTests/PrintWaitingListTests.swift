// PrintWaitingListTests: the waiting pages' file text, and which pages a start sends again.
import BoothCore
import Testing

struct PrintWaitingListTests {
    @Test func theTextReadsBackAsWritten() {
        let list = PrintWaitingList(pages: [.init(path: "/p/a.jpg", mark: 0), .init(path: "/p/b jpg.jpg", mark: 12)])
        #expect(list.text == "0\t/p/a.jpg\n12\t/p/b jpg.jpg\n")
        #expect(PrintWaitingList(text: list.text) == list)
        #expect(PrintWaitingList(text: "").pages.isEmpty)
    }

    /// A line cut short by a power cut, or one that is not a mark and an absolute path, is left out; the rest stay.
    @Test func aDamagedLineIsLeftOutAndTheOthersKept() {
        let list = PrintWaitingList(text: "3\t/p/a.jpg\nx\t/p/b.jpg\n-1\t/p/c.jpg\n4\trelative.jpg\n5\n7\t/p/d.j")
        #expect(list.pages == [.init(path: "/p/a.jpg", mark: 3), .init(path: "/p/d.j", mark: 7)])
    }

    /// A page is pending unless the ledger printed its path at a line after its mark (each such line answers for one
    /// page: a photo waiting twice and printed once is still pending once), or a reset came after its mark (its event
    /// is over). The ledger's lines count resets and lines without a path too; a print before the wait (an earlier copy
    /// of the same photo) holds nothing back. Mutations: comparing lines with `>=` instead of `>` fails c; letting one
    /// ledger line answer for every copy fails the second e; ignoring the reset fails old.
    @Test func theLedgerSortsThePagesIntoPendingTakenAndAnEarlierEvents() {
        let ledger = PrintLedger(
            text: PrintLedger.line(for: "/p/old.jpg", job: 1) + "-- reset\n" + "a.jpg\n"
                + PrintLedger.line(for: "/p/a.jpg", job: 2) + PrintLedger.line(for: "/p/b.jpg", job: 3)
                + PrintLedger.line(for: "/p/c.jpg", job: 4) + PrintLedger.line(for: "/p/e.jpg", job: 5))
        #expect(ledger.lineCount == 7)
        #expect(ledger.resetLine == 2)
        #expect(ledger.lines(of: "/p/a.jpg") == [4])
        #expect(ledger.lines(of: "/p/none.jpg").isEmpty)
        let list = PrintWaitingList(pages: [
            .init(path: "/p/old.jpg", mark: 1),  // waited across the reset
            .init(path: "/p/a.jpg", mark: 4),  // printed at its mark's line, before the wait: pending
            .init(path: "/p/b.jpg", mark: 4),  // printed at line 5, after its mark: taken
            .init(path: "/p/c.jpg", mark: 6),  // its print is its mark's line: pending
            .init(path: "/p/d.jpg", mark: 6),  // never printed: pending
            .init(path: "/p/e.jpg", mark: 6),  // waiting twice, printed once after: one taken,
            .init(path: "/p/e.jpg", mark: 6),  // the other pending
        ])
        let sorted = list.sorted(by: ledger)
        #expect(sorted.pending.map(\.path) == ["/p/a.jpg", "/p/c.jpg", "/p/d.jpg", "/p/e.jpg"])
        #expect(sorted.taken.map(\.path) == ["/p/b.jpg", "/p/e.jpg"])
        #expect(sorted.earlierEvent.map(\.path) == ["/p/old.jpg"])
    }
}
