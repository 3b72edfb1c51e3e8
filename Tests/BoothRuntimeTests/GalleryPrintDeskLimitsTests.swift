// GalleryPrintDeskLimitsTests: the print socket's limits, on a virtual-time loop: 8 connections held, silent ones closed.
import BoothCore
import BoothSystem
import BoothTestSupport
import BoothTime
import Foundation
import PhotoModel
import PhotoStore
import Printing
import Testing

@testable import BoothRuntime

/// The desk never waits on a guest: a ninth connection while eight are held is answered "busy" at once, a connection
/// that sends nothing is closed `requestTimeout` after it came (not before), and a closed one frees its place.
/// Clients connect from the loop's own timers, so virtual time cannot run past a connection before it is made.
@Suite(.timeLimit(.minutes(3)), .offCooperativePool) struct GalleryPrintDeskLimitsTests {
    @Test func aNinthConnectionIsAnsweredBusyAndASilentOneIsClosedAfterTheTimeoutNotBefore() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        let printer = try PhotoPrinter(
            client: CUPSClient(server: folder + "/no-cups.sock"), copies: 1,
            ledger: PrintLedgerFile(path: folder + "/prints.txt"),
            waitingFile: PrintWaitingFile(path: folder + "/print-waiting.txt"), limits: (0, 0),
            sheet: PrintSheet(settings: .init()), loop: loop
        ) { _ in }
        let store = try PhotoStore(directory: folder + "/photos", reserve: 0)
        let path = folder + "/print.sock"
        var asked: [String] = []
        let desk = try GalleryPrintDesk(path: path, loop: loop, printer: printer, store: store) { asked.append($0) }
        var early: [PacketSocket] = []
        var late: [PacketSocket] = []
        var ninth: [UInt8]? = nil
        var errors: [String] = []
        /// What each client reads now, without waiting: "open" (nothing yet), "closed", or the message.
        func states(_ clients: [PacketSocket]) -> [String] {
            clients.map { client in
                do {
                    guard let message = try client.receive(limit: 4096) else { return "open" }
                    return message.bytes.isEmpty ? "closed" : String(decoding: message.bytes, as: UTF8.self)
                } catch {
                    return "error: \(error)"
                }
            }
        }
        func at(_ seconds: Double, _ action: @escaping () throws -> Void) {
            loop.schedule(at: start.advanced(by: .seconds(seconds))) {
                do { try action() } catch { errors.append("at \(seconds) s: \(error)") }
            }
        }
        var seen: [Double: ([String], [String])] = [:]
        at(0.1) { for _ in 0..<4 { early.append(try PacketSocket.connect(to: path)) } }
        at(0.2) { for _ in 0..<4 { late.append(try PacketSocket.connect(to: path)) } }
        at(0.3) { late.append(try PacketSocket.connect(to: path)) }
        at(0.4) { ninth = try late.removeLast().receive(limit: 4096)?.bytes }
        for moment in [5.05, 5.15, 5.25] { at(moment) { seen[moment] = (states(early), states(late)) } }
        // A place freed: the next connection's request is read and answered (a photo the store does not keep).
        var tenth: PacketSocket? = nil
        var answer: [String] = []
        at(5.3) {
            tenth = try PacketSocket.connect(to: path)
            #expect(tenth?.send(GalleryPrint.request(photo: "HeyLook_undated_000001.jpg")) == true)
        }
        at(5.4) { answer = states(tenth.map { [$0] } ?? []) }
        at(6) { loop.stop() }
        try loop.run()
        desk.close()
        printer.finish()
        #expect(errors.isEmpty, "\(errors)")
        let busy = GalleryPrint.Answer.refused("the booth is busy with other prints: try again").message
        #expect(ninth == busy, "\(ninth.map { String(decoding: $0, as: UTF8.self) } ?? "nothing")")
        let open = Array(repeating: "open", count: 4)
        let closed = Array(repeating: "closed", count: 4)
        #expect(seen[5.05]?.0 == open && seen[5.05]?.1 == open, "\(seen)")
        #expect(seen[5.15]?.0 == closed && seen[5.15]?.1 == open, "\(seen)")
        #expect(seen[5.25]?.0 == closed && seen[5.25]?.1 == closed, "\(seen)")
        #expect(answer.first?.contains("is not a photo the booth keeps") == true, "\(answer)")
        #expect(asked.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
