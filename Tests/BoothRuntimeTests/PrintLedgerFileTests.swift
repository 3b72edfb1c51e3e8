// PrintLedgerFileTests: the print ledger's file read and appended, after a power cut too.
import BoothCore
import BoothTestSupport
import Foundation
import Testing

@testable import BoothRuntime

struct PrintLedgerFileTests {
    /// A last line a power cut left without its end is ended before the next line is appended, so the next print's
    /// job and path read back. Mutation: appending without ending it fails (the two lines run together).
    @Test func aLineCutShortByAPowerCutIsEndedBeforeTheNextOne() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PrintLedgerFile(path: folder + "/prints.txt")
        try "a.jpg\t1\t/p/a.jpg\nb.j".write(toFile: file.path, atomically: true, encoding: .utf8)
        try file.append(PrintLedger.line(for: "/p/c.jpg", job: 3))
        try file.append(PrintLedger.line(for: "/p/d.jpg", job: 4))
        let ledger = try file.read()
        #expect(ledger.total == 4)
        #expect(ledger.lines(of: "/p/c.jpg") == [3])
        #expect(ledger.recentJobs.map(\.job) == [1, 3, 4])
        #expect(
            try String(contentsOfFile: file.path, encoding: .utf8)
                == "a.jpg\t1\t/p/a.jpg\nb.j\nc.jpg\t3\t/p/c.jpg\nd.jpg\t4\t/p/d.jpg\n")
    }

    /// A missing file is an empty ledger, and the first line starts it.
    @Test func theFirstLineStartsTheFile() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = PrintLedgerFile(path: folder + "/prints.txt")
        #expect(try file.read().total == 0)
        try file.append(PrintLedger.line(for: "/p/a.jpg", job: 1))
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "a.jpg\t1\t/p/a.jpg\n")
    }
}
