// GalleryPrintDeskTests: a guest's print from the gallery, asked on the booth's socket, printed through a real CUPS.
import BoothCore
import BoothSystem
import BoothTestSupport
import Foundation
import PhotoModel
import Synchronization
import Testing

/// The real binary (`booth simulate`, `print.from_gallery` on) takes the gallery's print requests on `print.sock` in
/// its state folder: a kept photo is printed through a real cupsd to ippeveprinter (CUPSFixture) and the answer says
/// so; the photo's limit refuses the second, with the reason; a photo the booth does not keep and a message that is
/// no request are refused without printing.
@Suite(.timeLimit(.minutes(3)), .offCooperativePool, .needsCUPSFixture)
struct GalleryPrintDeskTests {
    let printing = PhotoPrinterTests()

    /// The path of the first photo the events in `folder` say was saved.
    func savedPhoto(in folder: String) -> String? {
        let text = String(decoding: readFile(folder + "/events.jsonl") ?? [], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("\"type\":\"photoSaved\"") }),
            let start = line.range(of: "\"path\":\"")?.upperBound,
            let end = line[start...].firstIndex(of: "\"")
        else { return nil }
        return String(line[start..<end])
    }

    @Test func aGuestsPrintIsPrintedOnceUnderThePhotosLimitAndAnythingElseIsRefused() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let socket = folder + "/print.sock"
            let answers = Mutex<[String: String]>([:])
            let asker = printing.once(folder, has: ["\"type\":\"photoSaved\""]) { [self] in
                let name = savedPhoto(in: folder).map { String($0.split(separator: "/").last!) } ?? "none"
                let questions: [(String, [UInt8])] = [
                    ("first", GalleryPrint.request(photo: name)), ("again", GalleryPrint.request(photo: name)),
                    ("unknown", GalleryPrint.request(photo: "HeyLook_undated_999999.jpg")),
                    ("traversal", Array("print ../index.txt".utf8)),
                ]
                for (label, question) in questions {
                    let answer: String
                    do {
                        answer = String(
                            decoding: try PacketSocket.ask(question, at: socket, timeout: .seconds(30)),
                            as: UTF8.self)
                    } catch {
                        answer = "error: \(error)"
                    }
                    answers.withLock { $0[label] = answer }
                }
            }
            let run = try printing.simulate(
                in: folder, server: cups.socket, review: 0, mode: "on-request",
                extra: "limit_per_photo = 1\nfrom_gallery = true", script: "press\nwait 8\nquit\n")
            while asker.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
            #expect(run.status == 0, "\(run.errors)")
            let photo = try #require(run.photos.first)
            let name = String(photo.split(separator: "/").last!)
            let said = answers.withLock { $0 }
            #expect(said["first"] == "sent 1", "\(said); booth: \(run.errors)")
            #expect(said["again"]?.hasPrefix("refused \(name) was printed 1 time already") == true, "\(said)")
            #expect(said["unknown"]?.contains("is not a photo the booth keeps") == true, "\(said)")
            #expect(said["traversal"]?.contains("does not print") == true, "\(said)")
            let documents = cups.documents(count: 2, timeout: 5)
            #expect(documents.count == 1, "\(documents); booth: \(run.errors)")
            #expect(documents.first.flatMap(readFile) == readFile(photo))
            #expect(printing.events(run, "printAsked").count == 2, "\(run.events)")
            #expect(printing.events(run, "printAsked").allSatisfy { $0.contains("\"from\":\"gallery\"") })
            #expect(printing.events(run, "printSent").count == 1)
            #expect(printing.events(run, "printRefused").count == 1)
            // The socket goes with the booth.
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
    }

    /// Without `print.from_gallery`, the booth takes no requests: nothing listens where the gallery would ask.
    @Test func withoutTheHostsLeaveNothingListens() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let failure = Mutex<String?>(nil)
            let asker = printing.once(folder, has: ["\"type\":\"photoSaved\""]) {
                do throws(SystemError) {
                    _ = try PacketSocket.ask(
                        GalleryPrint.request(photo: "HeyLook_undated_000001.jpg"), at: folder + "/print.sock",
                        timeout: .seconds(5))
                } catch {
                    failure.withLock { $0 = "\(error.errno)" }
                }
            }
            let run = try printing.simulate(
                in: folder, server: cups.socket, review: 0, mode: "on-request", script: "press\nwait 3\nquit\n")
            while asker.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
            #expect(run.status == 0, "\(run.errors)")
            #expect(failure.withLock { $0 } == "\(ENOENT)")
            #expect(printing.events(run, "printSent").isEmpty)
        }
    }
}
