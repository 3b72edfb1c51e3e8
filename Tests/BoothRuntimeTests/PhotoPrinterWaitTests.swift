// PhotoPrinterWaitTests: a page waiting for a CUPS out of reach, on a loop whose clock jumps: it gives up, or is kept.
import BoothCore
import BoothTestSupport
import BoothTime
import Foundation
import Printing
import Testing

@testable import BoothRuntime

/// The printer made whole on a virtual-time loop, against a CUPS socket nobody listens on: the page waits while the
/// queue is looked at every 5 s, and is reported not printed once it waited `waitLimit`, never before; one still
/// waiting when the printer finishes is kept, and waits again in the next printer, unless the ledger shows it sent.
@Suite(.timeLimit(.minutes(3))) struct PhotoPrinterWaitTests {
    /// A printer on a new virtual-time loop, its files in `folder`, CUPS out of reach; its reports with when.
    private final class Run {
        let loop: EventLoop
        let start: Instant
        var reports: [(PhotoPrinter.Report, Duration)] = []
        var printer: PhotoPrinter!

        init(in folder: String) throws {
            loop = try EventLoop(clock: LoopClock(virtual: true))
            start = loop.now()
            printer = try PhotoPrinter(
                client: CUPSClient(server: folder + "/no-cups.sock"), copies: 1,
                ledger: PrintLedgerFile(path: folder + "/prints.txt"),
                waitingFile: PrintWaitingFile(path: folder + "/print-waiting.txt"), limits: (0, 0),
                sheet: PrintSheet(settings: .init()), loop: loop
            ) { [unowned self] in self.reports.append(($0, self.loop.now().since(self.start))) }
        }

        /// Runs the loop for `seconds` of virtual time, then finishes the printer.
        func run(for seconds: Double) throws {
            loop.schedule(at: start.advanced(by: .seconds(seconds))) { [loop] in loop.stop() }
            try loop.run()
            printer.finish()
        }

        /// The paths reported waiting, with the reason.
        var waiting: [(String, String)] {
            reports.compactMap { report, _ in
                if case .waiting(let path, let reason, _) = report { return (path, reason) }
                return nil
            }
        }
    }

    /// Stopped while CUPS is out of reach, the booth keeps the page (no `printFailed`), and the next start makes it
    /// wait again, to be sent at the first look that reaches CUPS. Mutation: `finish` refusing the waiting pages (as
    /// before) fails the first run's checks; `restoreWaiting` not called fails the second's.
    @Test func aPageStillWaitingWhenThePrinterFinishesIsKeptAndWaitsAgainInTheNext() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: photo))
        let first = try Run(in: folder)
        first.printer.print([photo])
        try first.run(for: 20)
        #expect(first.waiting.map { $0.0 } == [photo], "\(first.reports.map { $0.0 })")
        #expect(
            first.reports.contains { if case .kept(photo) = $0.0 { true } else { false } },
            "\(first.reports.map { $0.0 })")
        #expect(!first.reports.contains { if case .refused = $0.0 { true } else { false } })
        let kept = try PrintWaitingFile(path: folder + "/print-waiting.txt").read()
        #expect(kept.pages == [.init(path: photo, mark: 0)])

        let second = try Run(in: folder)
        try second.run(for: 20)
        #expect(second.waiting.map { $0.0 } == [photo], "\(second.reports.map { $0.0 })")
        #expect(second.waiting.first?.1 == "it waited for CUPS when the booth stopped")
        #expect(try PrintWaitingFile(path: folder + "/print-waiting.txt").read().pages.map(\.path) == [photo])
    }

    /// At a start, a page the ledger shows CUPS took after it began to wait (a power cut between CUPS taking it and
    /// the booth striking it off the list) is not sent again, one that waited across `booth print reset` is reported
    /// not printed, and one the ledger shows only before its wait waits again; the file keeps only that one.
    /// Mutations: every kept page restored fails the first check; the reset ignored fails the second.
    @Test func atAStartATakenPageIsNotSentAgainAndOneFromAnEarlierEventIsNotPrinted() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let old = folder + "/HeyLook_2026-12-04_10-00-00_000001.jpg"
        let taken = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
        let again = folder + "/HeyLook_2026-12-05_10-00-00_000002.jpg"
        try ("-- reset\n" + PrintLedger.line(for: again, job: 3) + PrintLedger.line(for: taken, job: 4)).write(
            toFile: folder + "/prints.txt", atomically: true, encoding: .utf8)
        try PrintWaitingFile(path: folder + "/print-waiting.txt").write(
            PrintWaitingList(pages: [
                .init(path: old, mark: 0), .init(path: taken, mark: 2), .init(path: again, mark: 2),
            ]))
        let run = try Run(in: folder)
        try run.run(for: 10)
        #expect(run.waiting.map { $0.0 } == [again], "\(run.reports.map { $0.0 })")
        let refused = run.reports.compactMap { report, _ -> String? in
            if case .refused(let path, let reason) = report, reason == PhotoPrinter.earlierEvent { return path }
            return nil
        }
        #expect(refused == [old], "\(run.reports.map { $0.0 })")
        #expect(try PrintWaitingFile(path: folder + "/print-waiting.txt").read().pages == [.init(path: again, mark: 2)])
    }

    /// A waiting file that cannot be read is set aside (`.unreadable`), not replaced by the next list.
    @Test func anUnreadableWaitingFileIsSetAsideNotReplaced() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the file should be: reading it fails (EISDIR).
        try FileManager.default.createDirectory(
            atPath: folder + "/print-waiting.txt", withIntermediateDirectories: false)
        let photo = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: photo))
        let run = try Run(in: folder)
        run.printer.print([photo])
        try run.run(for: 10)
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: folder + "/print-waiting.txt.unreadable", isDirectory: &isFolder))
        #expect(isFolder.boolValue)
        #expect(try PrintWaitingFile(path: folder + "/print-waiting.txt").read().pages.map(\.path) == [photo])
    }

    @Test func aPageWaitingForCUPSIsReportedNotPrintedAfterTheWaitLimitAndNotBefore() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: photo))
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reports: [(PhotoPrinter.Report, Duration)] = []
        let printer = try PhotoPrinter(
            client: CUPSClient(server: folder + "/no-cups.sock"), copies: 1,
            ledger: PrintLedgerFile(path: folder + "/prints.txt"),
            waitingFile: PrintWaitingFile(path: folder + "/print-waiting.txt"), limits: (0, 0),
            sheet: PrintSheet(settings: .init()), loop: loop
        ) { reports.append(($0, loop.now().since(start))) }
        printer.print([photo])
        loop.schedule(at: start.advanced(by: PhotoPrinter.waitLimit + .seconds(60))) { loop.stop() }
        try loop.run()
        printer.finish()
        let waited = reports.compactMap { report, at -> Duration? in
            if case .waiting(let path, let reason, _) = report, path == photo, reason.contains("cannot reach CUPS") {
                return at
            }
            return nil
        }
        let failed = reports.compactMap { report, at -> (String, Duration)? in
            if case .refused(let path, let reason) = report, path == photo { return (reason, at) }
            return nil
        }
        #expect(waited.count == 1, "\(reports.map(\.0))")
        try #require(failed.count == 1, "\(reports.map(\.0))")
        #expect(failed[0].0.hasPrefix("CUPS was out of reach for 30 minutes (cannot reach CUPS"), "\(failed[0].0)")
        // Given up at the first look after the limit (looks every 5 s), not a look before. The printer stamps the page
        // when it handles the waiting report and this test a moment later, on a virtual clock that still moves in real
        // time between the two reads: a busy machine put 0.1 ms between them, so the test allows one second of it
        // (giving up a look early is 5 s short).
        let after = failed[0].1 - waited[0]
        #expect(
            after >= PhotoPrinter.waitLimit - .seconds(1) && after <= PhotoPrinter.waitLimit + .seconds(10), "\(after)")
        // Given up, it is no longer kept for the next start.
        #expect(try PrintWaitingFile(path: folder + "/print-waiting.txt").read().pages.isEmpty)
    }
}
