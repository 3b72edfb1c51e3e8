// PhotoPrinterWaitTests: a page waiting for a CUPS out of reach, on a loop whose clock jumps, until it gives up.
import BoothCore
import BoothTestSupport
import BoothTime
import Foundation
import Printing
import Testing

@testable import BoothMain

/// The printer made whole on a virtual-time loop, against a CUPS socket nobody listens on: the page waits while the
/// queue is looked at every 5 s, and is reported not printed once it waited `waitLimit`, never before.
@Suite(.timeLimit(.minutes(3))) struct PhotoPrinterWaitTests {
    @Test func aPageWaitingForCUPSIsReportedNotPrintedAfterTheWaitLimitAndNotBefore() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = folder + "/HeyLook_2026-12-05_10-00-00_000001.jpg"
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: URL(fileURLWithPath: photo))
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reports: [(PhotoPrinter.Report, Int64)] = []
        let printer = try PhotoPrinter(
            client: CUPSClient(server: folder + "/no-cups.sock"), copies: 1,
            ledger: PrintLedgerFile(path: folder + "/prints.txt"), limits: (0, 0), sheet: PrintSheet(settings: .init()),
            loop: loop
        ) { reports.append(($0, loop.now().since(start))) }
        printer.print([photo])
        loop.schedule(at: start.advanced(by: PhotoPrinter.waitLimit + .seconds(60))) { loop.stop() }
        try loop.run()
        printer.finish()
        let waited = reports.compactMap { report, at -> Int64? in
            if case .waiting(let path, let reason) = report, path == photo, reason.contains("cannot reach CUPS") {
                return at
            }
            return nil
        }
        let failed = reports.compactMap { report, at -> (String, Int64)? in
            if case .refused(let path, let reason) = report, path == photo { return (reason, at) }
            return nil
        }
        #expect(waited.count == 1, "\(reports.map(\.0))")
        try #require(failed.count == 1, "\(reports.map(\.0))")
        #expect(failed[0].0.hasPrefix("CUPS was out of reach for 30 minutes (cannot reach CUPS"), "\(failed[0].0)")
        // Given up at the first look after the limit (looks every 5 s), not before.
        let after = failed[0].1 - waited[0]
        #expect(after >= PhotoPrinter.waitLimit && after <= PhotoPrinter.waitLimit + .seconds(10), "\(after)")
    }
}
