// PhotoPrinter: sends the photos the booth keeps (or their layouts) to CUPS on a worker thread, following each job.
import BoothCore
import BoothSystem
import BoothTime
import Printing

/// Prints photos through CUPS (`print.mode` on) without the loop ever waiting on CUPS's socket: the pages for the
/// photos kept together (the photos, or the layouts `PrintSheet` renders of them) are made and sent by a worker thread
/// of its own, then each job is followed (CUPS asked every 2 s while any job is open) until it completed, was
/// cancelled or aborted. The queue itself is looked at from the start and every 5 s: whether it prints, or what keeps
/// it from printing (`CUPSClient.QueueState.attention`, or CUPS out of reach), reported when that changes. A page
/// CUPS could not take because CUPS itself was out of reach (not running, restarting) waits, and is sent again at the
/// first look that reaches CUPS; one that waited `waitLimit` is reported not printed. The pages waiting are kept in
/// `PrintWaitingFile` as they begin and end their wait: one still waiting when the booth stops (or loses its power)
/// waits again when it starts, unless the ledger shows CUPS took it; one that waited across `booth print reset` (the
/// event it was made for is over) is reported not printed instead of sent. A job CUPS cannot be asked about while it is out
/// of reach is asked about again. Before a page is sent, the print ledger (`PrintLedgerFile`) is read and the limits
/// asked (`PrintLedger.refusal`); each print CUPS took is added to it, durably. Reports come back on the loop's
/// thread. Each call to CUPS on the worker (pages made and sent, a look at the queue or at the open jobs) counts as the
/// loop's background work (virtual time waits for CUPS to answer); a job being printed between the looks does not.
final class PhotoPrinter {
    /// How often open jobs are looked at.
    static let followInterval: Duration = .seconds(2)
    /// How often the queue is looked at.
    static let queueInterval: Duration = .seconds(5)
    /// How long a page waits for a CUPS out of reach before it is reported not printed.
    static let waitLimit: Duration = .seconds(30 * 60)

    private let worker: Worker<Report>
    private let client: CUPSClient
    private let copies: Int
    private let ledger: PrintLedgerFile
    private let waitingFile: PrintWaitingFile
    private let limits: (perPhoto: Int, perEvent: Int)
    private let sheet: PrintSheet
    private let loop: EventLoop
    /// Jobs sent and not ended, with their photos (the loop's thread only).
    private var open: [Int32: String] = [:]
    /// The next look at the open jobs, while any is open.
    private var follow: EventLoop.TimerToken?
    /// Whether a look is under way on the worker.
    private var looking = false
    /// Set by `finish`: the loop has stopped, no job is followed any more.
    private var finished = false
    /// The next look at the queue.
    private var queueLook: EventLoop.TimerToken?
    /// What kept the queue from printing at the last look (.some(nil): nothing; nil: not looked at yet).
    private var lastAttention: String??
    /// Pages CUPS could not take for being out of reach, oldest first, with why, since when and their ledger marks
    /// (the loop's thread).
    private var waiting: [(page: String, reason: String, since: Instant, mark: Int)] = []
    /// Waiting pages sent again and not yet answered, in order, with since when they wait and their marks: one CUPS
    /// refuses again keeps its first wait (the limit counts from there, and its `waiting` is not reported twice). A
    /// photo can wait twice (printed twice on request): each report answers for the first of its entries.
    private var resent: [(page: String, since: Instant, mark: Int)] = []
    /// The answers `print(_:answer:)` calls wait for, by number (the loop's thread).
    private var answers: [Int: (Outcome) -> Void] = [:]
    private var nextAnswer = 0
    /// Where reports go once the printer has taken note of them.
    private let handle: (Report) -> Void

    /// A printer sending `copies` copies of each page (`sheet`'s) through `client`, counting its prints in `ledger`
    /// under the limits (0: none) and keeping the pages that wait for CUPS in `waitingFile`; `handle` gets every
    /// report on `loop`'s thread.
    init(
        client: CUPSClient, copies: Int, ledger: PrintLedgerFile, waitingFile: PrintWaitingFile,
        limits: (perPhoto: Int, perEvent: Int), sheet: PrintSheet, loop: EventLoop,
        handle: @escaping (Report) -> Void
    ) throws(SystemError) {
        self.sheet = sheet
        self.client = client
        self.copies = copies
        self.ledger = ledger
        self.waitingFile = waitingFile
        self.limits = limits
        self.loop = loop
        self.handle = handle
        worker = try Worker(label: "heylook.print", loop: loop)
        resumeJobs()
        restoreWaiting()
        lookAtQueue()
    }

    /// Sends the pages for `photos` (kept together: one sequence's) to CUPS, one job each, in order, as far as the
    /// limits allow: the photos themselves, or the layouts `sheet` makes of them. `answer`, when given, gets what
    /// became of them on the loop's thread once every page was sent, refused, limited or set to wait.
    func print(_ photos: [String], answer: ((Outcome) -> Void)? = nil) {
        let number = answer.map { answer in
            defer { nextAnswer += 1 }
            answers[nextAnswer] = answer
            return nextAnswer
        }
        onWorker { [client, copies, ledger, limits, sheet] post in
            var outcome = Outcome()
            func counted(_ report: Report) {
                outcome.count(report)
                post(report)
            }
            defer { post(.handedOver(outcome, answer: number)) }
            let pages: [String]
            do throws(PrintError) {
                pages = try sheet.pages(for: photos)
            } catch {
                for photo in photos { counted(.refused(photo: photo, reason: error.description)) }
                return
            }
            Self.send(
                pages.map { ($0, nil) }, client: client, copies: copies, ledger: ledger, limits: limits, post: counted)
        }
    }

    /// The reason a page that waited across `booth print reset` is not sent.
    static let earlierEvent = "a new event began (booth print reset) while it waited for CUPS"

    /// On the worker: sends `pages` to CUPS, one job each, in order, as far as the limits allow, counting each print
    /// CUPS took in the ledger. A page sent again after a wait comes with its mark: one the ledger shows reset since
    /// is not sent (`earlierEvent`).
    private static func send(
        _ pages: [(page: String, mark: Int?)], client: CUPSClient, copies: Int, ledger: PrintLedgerFile,
        limits: (perPhoto: Int, perEvent: Int), post: (Report) -> Void
    ) {
        for (page, mark) in pages {
            let name = FilePath(page).name
            let counted: PrintLedger
            do {
                counted = try ledger.read()
            } catch {
                // Unreadable: the print is not held back by it (a print in the hand before a count).
                Log.error("print: the print count \(ledger.path) cannot be read (\(error)); printing without it")
                counted = PrintLedger()
            }
            if let mark, counted.resetLine > mark {
                post(.refused(photo: page, reason: Self.earlierEvent))
                continue
            }
            if let refusal = counted.refusal(of: name, perPhoto: limits.perPhoto, perEvent: limits.perEvent) {
                post(.limited(photo: page, refusal: refusal))
                continue
            }
            let job: Int32
            do throws(PrintError) {
                job = try client.print(path: page, title: name, copies: copies)
            } catch {
                post(
                    error.isUnreachable
                        ? .waiting(photo: page, reason: error.description, mark: counted.lineCount)
                        : .refused(photo: page, reason: error.description))
                continue
            }
            do throws(SystemError) {
                try ledger.append(PrintLedger.line(for: page, job: job))
            } catch {
                Log.error("print: job \(job) of \(name) is not counted: \(error)")
            }
            post(.sent(photo: page, job: job, queue: client.queue))
        }
    }

    /// After a look at the queue: reports the pages that waited `waitLimit` not printed, and sends the others again
    /// when CUPS answered (`reachable`).
    private func settleWaiting(reachable: Bool) {
        let now = loop.now()
        let expired = waiting.filter { now.since($0.since) >= Self.waitLimit }
        waiting.removeAll { now.since($0.since) >= Self.waitLimit }
        for page in expired {
            handle(
                .refused(
                    photo: page.page,
                    reason:
                        "CUPS was out of reach for \(Self.waitLimit.components.seconds / 60) minutes (\(page.reason))"))
        }
        if !expired.isEmpty { keepWaiting() }
        guard reachable, !waiting.isEmpty else { return }
        let pages = waiting.map { (page: $0.page, mark: Optional($0.mark)) }
        resent += waiting.map { ($0.page, $0.since, $0.mark) }
        waiting = []
        onWorker { [client, copies, ledger, limits] post in
            defer { post(.handedOver(Outcome(), answer: nil)) }
            Self.send(pages, client: client, copies: copies, ledger: ledger, limits: limits, post: post)
        }
    }

    /// Runs `job` on the worker; its reports reach `received` on the loop's thread.
    private func onWorker(_ job: @escaping @Sendable (_ post: (Report) -> Void) -> Void) {
        worker.run(job) { [unowned self] in received($0) }
    }

    /// Shutdown: waits for the photos being sent (a job CUPS took prints without the booth); their reports go to
    /// the handler. The pages still waiting for CUPS are kept for the next start.
    func finish() {
        finished = true
        if let follow { loop.cancel(follow) }
        if let queueLook { loop.cancel(queueLook) }
        queueLook = nil
        follow = nil
        for report in worker.finish() {
            received(report)
        }
        // What is still open is CUPS's to print now; what waits for CUPS waits for the next start.
        open = [:]
        Self.keep(waitingList, in: waitingFile)
        for page in waiting { handle(.kept(photo: page.page)) }
        waiting = []
    }

    /// The pages sent again and not answered yet, then those waiting now: what a start after a stop sends.
    private var waitingList: PrintWaitingList {
        PrintWaitingList(
            pages: resent.map { PrintWaitingList.Page(path: $0.page, mark: $0.mark) }
                + waiting.map { PrintWaitingList.Page(path: $0.page, mark: $0.mark) })
    }

    /// Strikes the first entry of `photo` off `resent` (its answer came); whether there was one.
    private func answered(_ photo: String) -> Bool {
        guard let index = resent.firstIndex(where: { $0.page == photo }) else { return false }
        resent.remove(at: index)
        return true
    }

    /// Keeps the pages waiting now in the waiting file, on the worker (behind the sends before it). Once the printer
    /// finishes, `finish` writes the last list itself.
    private func keepWaiting() {
        guard !finished else { return }
        let list = waitingList
        onWorker { [waitingFile] _ in Self.keep(list, in: waitingFile) }
    }

    /// Writes `list` to `file`; a failure is in the journal (the pages wait only while the booth runs then).
    private static func keep(_ list: PrintWaitingList, in file: PrintWaitingFile) {
        do throws(SystemError) {
            try file.write(list)
        } catch {
            Log.error(
                "print: the pages waiting for CUPS cannot be kept in \(file.path) (\(error)); they wait only while the booth runs"
            )
        }
    }

    /// On the worker: the pages kept waiting when the booth last stopped wait again (sent at the first look that
    /// reaches CUPS), except those the ledger shows CUPS took after they began to wait, and those from an event
    /// before `booth print reset` (reported not printed). A file that cannot be read is set aside, not overwritten.
    private func restoreWaiting() {
        onWorker { [ledger, waitingFile] post in
            let kept: PrintWaitingList
            do throws(SystemError) {
                kept = try waitingFile.read()
            } catch {
                Log.error("print: the photos waiting for CUPS before the booth started cannot be read (\(error))")
                waitingFile.setAside()
                return
            }
            guard !kept.pages.isEmpty else { return }
            // Unreadable, the ledger holds nothing back: a print in the hand before a count (as `send` does).
            let sorted = kept.sorted(by: (try? ledger.read()) ?? PrintLedger())
            // What will not wait again goes from the file now; the rest stays as it is.
            if sorted.pending.count < kept.pages.count {
                Self.keep(PrintWaitingList(pages: sorted.pending), in: waitingFile)
            }
            for page in sorted.earlierEvent { post(.refused(photo: page.path, reason: Self.earlierEvent)) }
            if !sorted.pending.isEmpty { post(.restored(pages: sorted.pending)) }
        }
    }

    /// Why a restored page waits.
    static let restoredReason = "it waited for CUPS when the booth stopped"

    private func received(_ report: Report) {
        switch report {
        case .sent(let photo, let job, _):
            if answered(photo) { keepWaiting() }
            open[job] = photo
            scheduleLook()
        case .resumed(let photo, let job):
            open[job] = photo
            scheduleLook()
        case .refused(let photo, _), .limited(let photo, _):
            if answered(photo) { keepWaiting() }
        case .waiting(let photo, let reason, let mark):
            let first = resent.firstIndex { $0.page == photo }.map { resent.remove(at: $0) }
            waiting.append((photo, reason, first?.since ?? loop.now(), mark))
            keepWaiting()
            guard first == nil else { return }
        case .restored(let pages):
            // Already in the file as they are: only the handler hears of them.
            for page in pages {
                waiting.append((page.path, Self.restoredReason, loop.now(), page.mark))
                handle(.waiting(photo: page.path, reason: Self.restoredReason, mark: page.mark))
            }
            return
        case .kept:
            break
        case .handedOver(let outcome, let number):
            if let number, let answer = answers.removeValue(forKey: number) { answer(outcome) }
        case .ended(_, let job, _), .lost(_, let job, _):
            open[job] = nil
        case .looked:
            looking = false
            scheduleLook()
        case .queue(let attention, let reachable):
            if !finished { settleWaiting(reachable: reachable) }
            // Only a change is news.
            guard lastAttention != .some(attention) else { return }
            lastAttention = .some(attention)
        }
        handle(report)
    }

    /// On the worker: the last jobs the ledger names that CUPS has not ended (sent before a restart, waiting for
    /// paper, say) are reported to be followed, so each ends in `printed` or `printFailed` and none is sent twice.
    private func resumeJobs() {
        onWorker { [client, ledger] post in
            guard let recent = try? ledger.read().recentJobs else { return }
            for sent in recent {
                guard let state = try? client.state(ofJob: sent.job), !state.isFinal else { continue }
                post(.resumed(photo: sent.path, job: sent.job))
            }
        }
    }

    /// Looks at the open jobs in `followInterval`, unless a look is due or under way.
    private func scheduleLook() {
        guard follow == nil, !looking, !finished, !open.isEmpty else { return }
        follow = loop.schedule(at: loop.now().advanced(by: Self.followInterval)) { [unowned self] in
            self.follow = nil
            self.look()
        }
    }

    /// Asks CUPS how the queue is on the worker (reporting a change), then again in `queueInterval`.
    private func lookAtQueue() {
        onWorker { [client] post in
            do throws(PrintError) {
                post(.queue(attention: try client.queueState().attention, reachable: true))
            } catch {
                post(.queue(attention: error.description, reachable: !error.isUnreachable))
            }
        }
        guard !finished else { return }
        queueLook = loop.schedule(at: loop.now().advanced(by: Self.queueInterval)) { [unowned self] in
            self.queueLook = nil
            self.lookAtQueue()
        }
    }

    private func look() {
        let jobs = open
        looking = true
        onWorker { [client] post in
            for (job, photo) in jobs.sorted(by: { $0.key < $1.key }) {
                do throws(PrintError) {
                    let state = try client.state(ofJob: job)
                    if state.isFinal { post(.ended(photo: photo, job: job, state: state)) }
                } catch let error where error.isUnreachable {
                    // Asked again at the next look: the job is CUPS's, and CUPS is coming back.
                    continue
                } catch {
                    post(.lost(photo: photo, job: job, reason: error.description))
                }
            }
            post(.looked)
        }
    }
}
