// PhotoPrinterTests: `booth simulate` with print.mode = "each" printing through a real cupsd to a real IPP printer.
import BoothCore
import BoothTestSupport
import Foundation
import PhotoEncoding
import Testing

/// The real binary prints each kept photo through CUPS (CUPSFixture: cupsd and ippeveprinter started by the test):
/// the printer receives the saved photo byte for byte, a retake prints nothing, and a queue CUPS does not have or a
/// CUPS that is not running fail the print with the fix while the photo is kept.
@Suite(
    .timeLimit(.minutes(3)), .offCooperativePool,
    .needsCUPSFixture)
struct PhotoPrinterTests {
    /// Runs `booth simulate --script -` with `script` and a config printing each photo (the review window and the
    /// countdown given in seconds, `extra` lines in its [print] table) against the CUPS at `server`; its exit status,
    /// standard error, events and saved photos.
    func simulate(
        in folder: String, server: String, review: Double, delay: Double = 0.5, mode: String = "each",
        burst: Int = 1, extra: String = "", script: String, stopWhen: (@Sendable () -> Bool)? = nil
    ) throws -> (status: Int32, errors: String, events: [String], photos: [String]) {
        try """
        [booth]
        state_file = "\(folder)/state.toml"
        review_window = \(review)
        burst = \(burst)
        [sound]
        favourites = ["Pop"]
        default = "Pop"
        [countdown]
        default_delay = \(delay)
        [print]
        mode = "\(mode)"
        \(extra)
        """.write(toFile: folder + "/booth.toml", atomically: true, encoding: .utf8)
        let run = try runBoothSimulate(
            [
                "--config", folder + "/booth.toml", "--photos", folder + "/photos", "--events-json",
                folder + "/events.jsonl",
            ], script: script, environment: ["CUPS_SERVER": server], stopWhen: stopWhen)
        let events = String(decoding: readFile(folder + "/events.jsonl") ?? [], as: UTF8.self)
            .split(separator: "\n").map(String.init)
        let photos = try folderNames(folder + "/photos").filter { $0.hasSuffix(".jpg") }.map {
            folder + "/photos/" + $0
        }
        return (run.status, run.errors, events, photos)
    }

    func events(
        _ run: (status: Int32, errors: String, events: [String], photos: [String]), _ type: String
    )
        -> [String]
    {
        run.events.filter { $0.contains("\"type\":\"\(type)\"") }
    }

    /// Starts a thread that runs `action` once the events file in `folder` holds every one of `texts` (looked at every
    /// 50 ms; after 60 s it runs anyway, and the test's checks say what was missing): what the printer does next
    /// follows what the booth did, never a guess at how long the booth takes on a busy machine.
    func once(
        _ folder: String, has texts: [String], _ action: @escaping @Sendable () -> Void
    ) -> Thread {
        let thread = Thread {
            let end = Date().addingTimeInterval(60)
            while Date() < end {
                let text = String(decoding: readFile(folder + "/events.jsonl") ?? [], as: UTF8.self)
                if texts.allSatisfy(text.contains) { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            action()
        }
        thread.start()
        return thread
    }

    @Test func aKeptPhotoReachesThePrinterByteForByteAndItsJobIsFollowedToTheEnd() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let run = try simulate(in: folder, server: cups.socket, review: 0, script: "press\nwait 5\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            let photo = try #require(run.photos.first)
            #expect(run.photos.count == 1)
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1, "\(documents); booth: \(run.errors)")
            #expect(documents.first.flatMap(readFile) == readFile(photo))
            let sent = events(run, "printSent")
            #expect(sent.count == 1)
            #expect(sent.first?.contains("\"path\":\"\(photo)\"") == true, "\(sent)")
            #expect(sent.first?.contains("\"queue\":\"default\"") == true, "\(sent)")
            #expect(events(run, "printed").count == 1, "\(run.events)")
            #expect(events(run, "printFailed").isEmpty)
        }
    }

    @Test func aRetakePrintsNothingAndThePhotoThatStaysPrintsOnceAsTheBoothStops() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // The first photo is discarded by the long press in its review window; the retake is still in its own
            // review window when the booth is told to quit, so it is printed on the way out. The countdown (2 s)
            // outlasts the hold (1 s), so the long press comes while the retake's sequence runs.
            let run = try simulate(
                in: folder, server: cups.socket, review: 5, delay: 2,
                extra: "queue = \"\(CUPSFixture.queue)\"\ncopies = 2",
                script: "press\nwait 4\nlong-press\nwait 4\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.photos.count == 1, "\(run.photos)")
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1, "\(documents)")
            #expect(documents.first.flatMap(readFile) == run.photos.first.flatMap(readFile))
            #expect(events(run, "printSent").count == 1)
            #expect(events(run, "printSent").first?.contains("\"queue\":\"booth\"") == true)
            // Two copies, in colour, asked of the printer in the job's attributes.
            let printer = cups.log("ippeveprinter.log")
            #expect(printer.contains("copies (integer) 2"))
            #expect(printer.contains("print-color-mode (keyword) color"))
        }
    }

    /// Runs `booth ARGUMENTS` to its end; its standard output (a failure records its standard error).
    private func booth(_ arguments: [String]) throws -> String {
        let run = try runBooth(arguments)
        try #require(run.status == 0, "booth \(arguments): \(run.errors)")
        return run.output
    }

    @Test func onRequestThePrintButtonPrintsUntilTheEventsLimitAndAResetStartsANewEvent() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Nothing prints by itself; the print button prints the photo, then again; the third is one too many.
            let run = try simulate(
                in: folder, server: cups.socket, review: 0, mode: "on-request", extra: "limit_per_event = 2",
                script: "press\nwait 3\nprint\nwait 1\nprint\nwait 1\nprint\nwait 3\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            let photo = try #require(run.photos.first)
            #expect(run.photos.count == 1)
            let documents = cups.documents(count: 3, timeout: 10)
            #expect(documents.count == 2, "\(documents); booth: \(run.errors)")
            #expect(documents.allSatisfy { readFile($0) == readFile(photo) })
            #expect(events(run, "printSent").count == 2)
            let refused = events(run, "printRefused")
            #expect(refused.count == 1, "\(run.events)")
            #expect(refused.first?.contains("print.limit_per_event") == true, "\(refused)")
            #expect(run.errors.contains("not printed: the event's 2 prints are made"), "\(run.errors)")

            // The count outlives the booth; a reset starts a new event, and the booth prints again.
            let config = ["--config", folder + "/booth.toml"]
            #expect(try booth(["print", "count"] + config).contains("this event: 2 prints (limit 2)"))
            #expect(try booth(["print", "reset"] + config).contains("print count reset: 2 prints in the event before"))
            #expect(try booth(["print", "count"] + config).contains("this event: 0 prints (limit 2)"))
            let again = try simulate(
                in: folder, server: cups.socket, review: 0, mode: "on-request", extra: "limit_per_event = 2",
                script: "press\nwait 3\nprint\nwait 3\nquit\n")
            #expect(again.status == 0, "\(again.errors)")
            #expect(events(again, "printSent").count == 1, "\(again.events)")
            #expect(cups.documents(count: 3).count == 3)
            #expect(try booth(["print", "count"] + config).contains("this event: 1 print (limit 2)"))
        }
    }

    @Test func aPhotosOwnLimitRefusesItsReprintWithTheFix() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // Printed once as its review window closes; the print button's reprint is one too many.
            let run = try simulate(
                in: folder, server: cups.socket, review: 0, extra: "limit_per_photo = 1",
                script: "press\nwait 3\nprint\nwait 3\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            let photo = try #require(run.photos.first)
            #expect(events(run, "printSent").count == 1, "\(run.events)")
            let refused = events(run, "printRefused")
            #expect(refused.count == 1, "\(run.events)")
            let name = String(photo.split(separator: "/").last!)
            #expect(refused.first?.contains("\(name) was printed 1 time already") == true, "\(refused)")
            #expect(cups.documents(count: 2, timeout: 5).count == 1)
        }
    }

    @Test func aBurstPrintsAsOneStripPageKeptBesideItsPhotos() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let run = try simulate(
                in: folder, server: cups.socket, review: 0, burst: 2,
                extra: "layout = \"strip\"\ntitle = \"Emma turns 5\"\ndate = true",
                script: "press\nwait 6\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.photos.count == 2, "\(run.photos)")
            let documents = cups.documents(count: 2, timeout: 10)
            #expect(documents.count == 1, "one page for the burst: \(documents)")
            let first = try #require(run.photos.sorted().first).split(separator: "/").last!.dropLast(4)
            let layout = folder + "/photos/layouts/\(first)-strip.jpg"
            let kept = try #require(readFile(layout), "the layout is kept beside the photos")
            #expect(documents.first.flatMap(readFile) == kept)
            let page = try JPEGInspector.decode(kept)
            #expect((page.width, page.height) == (1200, 1800))
            #expect(events(run, "printSent").first?.contains("\"path\":\"\(layout)\"") == true, "\(run.events)")
            let ledger = String(decoding: readFile(folder + "/prints.txt") ?? [], as: UTF8.self)
            #expect(ledger.hasPrefix("\(first)-strip.jpg\t"), "\(ledger)")
            #expect(ledger.hasSuffix("\t\(layout)\n"), "\(ledger)")
            #expect(PrintLedger(text: ledger).total == 1)
            // The photos themselves stay as they were taken.
            #expect(run.photos.allSatisfy { readFile($0) != kept })
        }
    }

    @Test func aJobSentBeforeARestartIsFollowedToItsEndAndNeverSentAgain() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            // The booth stops while its photo's job waits for paper: the job is CUPS's now.
            cups.trouble = "media-empty,media-needed"
            let first = try simulate(in: folder, server: cups.socket, review: 0, script: "press\nwait 4\nquit\n")
            #expect(first.status == 0, "\(first.errors)")
            #expect(events(first, "printSent").count == 1, "\(first.events)")
            #expect(events(first, "printed").isEmpty)
            // The paper is back while the booth runs again: it follows the job it knows from prints.txt to its end. The
            // first look at the queue comes after the look at that job (one worker, in order): the paper comes back
            // once the second run's first printer event is written.
            try FileManager.default.removeItem(atPath: folder + "/events.jsonl")
            _ = once(folder, has: ["\"type\":\"printer\""]) { cups.trouble = nil }
            let second = try simulate(in: folder, server: cups.socket, review: 0, script: "wait 14\nquit\n")
            #expect(second.status == 0, "\(second.errors)")
            #expect(second.errors.contains("print: following job"), "\(second.errors)")
            let printed = events(second, "printed")
            #expect(printed.count == 1, "\(second.events)")
            #expect(printed.first?.contains(try #require(first.photos.first)) == true, "\(printed)")
            #expect(events(second, "printSent").isEmpty, "nothing is sent twice")
            #expect(cups.documents(count: 2, timeout: 3).count == 1)
        }
    }

    @Test func aQueueCUPSDoesNotHaveFailsThePrintWithTheFixAndKeepsThePhoto() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let run = try simulate(
                in: folder, server: cups.socket, review: 0, extra: "queue = \"Selphy\"", script: "press\nwait 3\nquit\n"
            )
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.photos.count == 1)
            let failed = events(run, "printFailed")
            #expect(failed.count == 1)
            #expect(failed.first?.contains("CUPS has no queue 'Selphy'") == true, "\(failed)")
            #expect(run.errors.contains("not printed: CUPS has no queue 'Selphy'"), "\(run.errors)")
            #expect(cups.documents(count: 1, timeout: 1).isEmpty)
        }
    }

    @Test func aStoppedQueueLightsThePrinterWarningUntilItIsStartedAgainAndItsPhotoPrintsThen() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try cups.admin("cupsdisable", [CUPSFixture.queue])
            // The queue is started again once the booth sent the photo and said the queue is stopped.
            _ = once(folder, has: ["\"type\":\"printSent\"", "the queue booth is stopped"]) {
                try? cups.admin("cupsenable", [CUPSFixture.queue])
            }
            let run = try simulate(in: folder, server: cups.socket, review: 0, script: "press\nwait 18\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            let warnings = events(run, "setting").filter { $0.contains("warning.printerNeedsAttention") }
            #expect(warnings.count == 2, "\(warnings)")
            #expect(warnings.first?.contains("\"value\":\"true\"") == true)
            #expect(warnings.last?.contains("\"value\":\"false\"") == true)
            let printer = events(run, "printer")
            #expect(printer.first?.contains("the queue booth is stopped") == true, "\(printer)")
            #expect(printer.last?.contains("\"attention\":\"none\"") == true, "\(printer)")
            #expect(run.errors.contains("the printer needs attention: the queue booth is stopped"))
            // The photo CUPS held while the queue was stopped prints once it starts again.
            #expect(events(run, "printSent").count == 1)
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1)
            #expect(documents.first.flatMap(readFile) == run.photos.first.flatMap(readFile))
        }
    }

    @Test func paperOutLightsThePrinterWarningAndTheWaitingPhotoPrintsOnceWhenThePaperIsBack() throws {
        try CUPSFixture.exclusively { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            cups.trouble = "media-empty,media-needed"
            // The paper is back once the booth said the printer is out of paper (the job reached the printer).
            _ = once(folder, has: ["out of paper (media-empty"]) { cups.trouble = nil }
            let run = try simulate(in: folder, server: cups.socket, review: 0, script: "press\nwait 30\nquit\n")
            #expect(run.status == 0, "\(run.errors)")
            let warnings = events(run, "setting").filter { $0.contains("warning.printerNeedsAttention") }
            #expect(warnings.count == 2, "\(warnings); \(events(run, "printer")); \(events(run, "printed"))")
            #expect(warnings.first?.contains("\"value\":\"true\"") == true)
            #expect(warnings.last?.contains("\"value\":\"false\"") == true)
            let printer = events(run, "printer")
            #expect(printer.contains { $0.contains("out of paper (media-empty") }, "\(printer)")
            // The one job waited for the paper and printed once.
            #expect(events(run, "printSent").count == 1)
            #expect(events(run, "printed").count == 1, "\(run.events.suffix(20))")
            #expect(events(run, "printFailed").isEmpty)
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1, "\(documents)")
            #expect(documents.first.flatMap(readFile) == run.photos.first.flatMap(readFile))
        }
    }

    /// CUPS out of reach when the photo is kept (cupsd starts once the booth said the photo waits, as after a
    /// restart): the page waits, and is sent at the first look at the queue that reaches CUPS, printed once, byte for
    /// byte.
    @Test func aPhotoKeptWhileCUPSIsOutOfReachWaitsAndPrintsOnceItAnswers() throws {
        try CUPSFixture.exclusively(started: false) { cups in
            let folder = temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            nonisolated(unsafe) var failure: (any Error)?
            // cupsd starts once the booth said the photo waits for it.
            let starter = once(folder, has: ["\"type\":\"printWaiting\""]) {
                do { try cups.start() } catch { failure = error }
            }
            // cupsd can take a minute to start beside a busy machine's other tests: the booth runs until the page was
            // sent and its job ended (or 5 minutes), not for a fixed time.
            let run = try simulate(
                in: folder, server: cups.socket, review: 0, script: "press\nwait 300\nquit\n",
                stopWhen: {
                    let text = String(decoding: readFile(folder + "/events.jsonl") ?? [], as: UTF8.self)
                    return text.contains("\"type\":\"printed\"") || text.contains("\"type\":\"printFailed\"")
                })
            while !starter.isFinished { Thread.sleep(forTimeInterval: 0.05) }
            try #require(failure == nil, "\(String(describing: failure))")
            #expect(run.status == 0, "\(run.errors)")
            let waiting = events(run, "printWaiting")
            #expect(waiting.count == 1 && waiting[0].contains("cannot reach CUPS"), "\(waiting)")
            #expect(events(run, "printSent").count == 1, "\(run.events.suffix(12))")
            #expect(events(run, "printFailed").isEmpty)
            let documents = cups.documents(count: 1)
            #expect(documents.count == 1, "\(documents)")
            #expect(documents.first.flatMap(readFile) == run.photos.first.flatMap(readFile))
        }
    }

    /// CUPS never reached: each photo waits and is kept when the booth stops (no `printFailed`); the next start, with
    /// CUPS running, sends each once, byte for byte, and keeps nothing more. Mutation: the stop reporting the waiting
    /// pages not printed (as before) fails the first run's checks.
    @Test func aCUPSThatIsNotRunningKeepsThePhotosWaitingAndTheNextStartPrintsThemOnce() throws {
        let folder = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try simulate(
            in: folder, server: folder + "/no-cups.sock", review: 0, script: "press\nwait 3\npress\nwait 3\nquit\n")
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.photos.count == 2)
        #expect(events(run, "printWaiting").count == 2)
        #expect(events(run, "printFailed").isEmpty, "\(events(run, "printFailed"))")
        #expect(events(run, "photoSaved").count == 2)
        let waitingFile = folder + "/print-waiting.txt"
        let kept = String(decoding: readFile(waitingFile) ?? [], as: UTF8.self)
        #expect(run.photos.allSatisfy { kept.contains("\t\($0)\n") }, "\(kept)")

        try CUPSFixture.exclusively { cups in
            let next = try simulate(in: folder, server: cups.socket, review: 0, script: "wait 8\nquit\n")
            #expect(next.status == 0, "\(next.errors)")
            let waiting = events(next, "printWaiting")
            #expect(
                waiting.count == 2 && waiting.allSatisfy { $0.contains("it waited for CUPS when the booth stopped") },
                "\(waiting)")
            #expect(events(next, "printSent").count == 2, "\(next.events.suffix(12))")
            #expect(events(next, "printFailed").isEmpty)
            let documents = cups.documents(count: 2)
            #expect(documents.count == 2, "\(documents)")
            #expect(Set(documents.compactMap(readFile)) == Set(run.photos.compactMap(readFile)))
            #expect(readFile(waitingFile)?.isEmpty == true)
        }
    }
}
