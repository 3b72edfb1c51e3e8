// CUPSClientTests: photos sent through a real cupsd to a real IPP printer (CUPSFixture), and CUPS's refusals.
import BoothTestSupport
import Foundation
import PhotoEncoding
import Printing
import Testing

@Suite(
    .timeLimit(.minutes(3)), .offCooperativePool,
    .needsCUPSFixture)
struct CUPSClientTests {
    /// A JPEG of the test's own in `folder`; its path and bytes.
    private func photo(in folder: String, text: String = "print") throws -> (path: String, bytes: [UInt8]) {
        let bytes = try JPEGEncoder.encode(TestPattern.render(width: 96, height: 72, text: text))
        let path = folder + "/HeyLook_2026-12-04_12-00-00_000001.jpg"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    /// Polls job `job` until its state is final (30 s at most).
    private func finalState(of job: Int32, _ client: CUPSClient) throws -> CUPSClient.JobState {
        let end = Date().addingTimeInterval(30)
        while true {
            let state = try client.state(ofJob: job)
            if state.isFinal || Date() > end { return state }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    @Test func aPhotoSentToTheDefaultQueueReachesThePrinterByteForByte() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let photo = try photo(in: folder)
            let client = CUPSClient(server: cups.socket)
            let job = try client.print(path: photo.path, title: "HeyLook photo", copies: 1)
            #expect(job > 0)
            #expect(try finalState(of: job, client) == .completed)
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1, "printer received \(documents); its log: \(cups.log("ippeveprinter.log"))")
            // The printer takes JPEG: CUPS hands the photo over unchanged, and it decodes to the photo's size.
            let received = try #require(documents.first.flatMap(readFile))
            #expect(received == photo.bytes)
            let decoded = try JPEGInspector.decode(received)
            #expect(decoded.width == 96 && decoded.height == 72)
        }
    }

    @Test func theQueueSaysItsNameStateAndReasons() throws {
        try CUPSFixture.exclusively { cups in
            let named = try CUPSClient(server: cups.socket, queue: CUPSFixture.queue).queueState()
            #expect(named == .init(name: CUPSFixture.queue, state: 3, reasons: []))
            // The default queue is the fixture's.
            #expect(try CUPSClient(server: cups.socket).queueState().name == CUPSFixture.queue)
        }
    }

    /// A jam and an open cover as ippeveprinter reports them over IPP while a job waits (its reasons have no
    /// door-open): the queue's state names them in words, and once cleared the same job completes, printed once.
    @Test(arguments: [("media-jam", "a paper jam (media-jam"), ("cover-open", "a door or cover open (cover-open")])
    func aJamOrAnOpenCoverIsReadFromThePrintersStateAndTheJobPrintsOnceCleared(reason: String, words: String) throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let photo = try photo(in: folder)
            let client = CUPSClient(server: cups.socket)
            cups.trouble = reason
            let job = try client.print(path: photo.path, title: "HeyLook photo", copies: 1)
            let end = Date().addingTimeInterval(30)
            var attention: String?
            while Date() < end {
                attention = try client.queueState().attention
                if attention != nil { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            #expect(attention?.contains(words) == true, "\(String(describing: attention))")
            #expect(try client.state(ofJob: job).isFinal == false, "the job waits for the printer")
            cups.trouble = nil
            #expect(try finalState(of: job, client) == .completed)
            let documents = cups.documents(count: 2, timeout: 3)
            #expect(documents.count == 1, "\(documents)")
            #expect(documents.first.flatMap(readFile) == photo.bytes)
            #expect(try client.queueState().attention == nil)
        }
    }

    @Test func anUnknownQueueIsRefusedNamingItAndTheFix() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let client = CUPSClient(server: cups.socket, queue: "Selphy")
            let error = #expect(throws: PrintError.self) {
                try client.print(path: try photo(in: folder).path, title: "x", copies: 1)
            }
            #expect(error?.description.contains("CUPS has no queue 'Selphy'") == true, "\(String(describing: error))")
            #expect(error?.description.contains("lpstat -p") == true)
            // CUPS answered: sending again would be refused again.
            #expect(error?.isUnreachable == false)
            #expect(cups.documents(count: 1, timeout: 1).isEmpty)
        }
    }

    /// Every call says CUPS is out of reach (a print may be sent again later) and names the fix.
    @Test func aCUPSThatIsNotRunningIsNamedWithTheFix() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let client = CUPSClient(server: folder + "/no-cups.sock")
        let errors = [
            #expect(throws: PrintError.self) { try client.queueState() },
            #expect(throws: PrintError.self) {
                try client.print(path: try photo(in: folder).path, title: "x", copies: 1)
            },
            #expect(throws: PrintError.self) { try client.state(ofJob: 1) },
        ]
        for error in errors { #expect(error?.isUnreachable == true, "\(String(describing: error))") }
        for error in errors.prefix(2) {
            #expect(error?.description.contains("cannot reach CUPS") == true, "\(String(describing: error))")
            #expect(error?.description.contains("systemctl status cups") == true)
        }
    }
}
