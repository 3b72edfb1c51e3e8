// Worker: a serial thread of its own for slow jobs, reporting back to the event loop through a mailbox.
import BoothSystem
import Dispatch

/// A serial thread for jobs too slow for the event loop (encoding and saving a photo, exporting to a stick, reading
/// a sensor), run on the normal scheduler so they never compete with the loop's SCHED_FIFO thread, and the mailbox
/// through which the jobs report back, handled on the loop thread: what the save, export and health workers share.
///
/// Each job is given with what handles its reports (`run(_:then:)`), so a worker needs nothing of its owner when it
/// is made. Each job counts as pending work from `run` until the loop has handled its last report (`PendingJobs`),
/// so the loop's virtual clock waits for it without anyone keeping count by hand. `run` and `finish` are called on
/// the loop's thread (or, before the loop runs, the thread that will run it).
final class Worker<Report: Sendable> {
    /// What the mailbox carries: a report of job `job`, or its end.
    private enum Item: Sendable {
        case report(job: UInt64, Report)
        case done(job: UInt64)
    }

    private let queue: DispatchQueue
    private let mailbox: Mailbox<Item>
    private let pending = PendingJobs()
    /// What handles each queued job's reports, by job number, until its end is handled.
    private var handlers: [UInt64: (Report) -> Void] = [:]
    private var nextJob: UInt64 = 0

    /// A worker whose thread is named `label` (it shows in a stack trace), reporting on `loop`'s thread.
    init(label: String, loop: EventLoop) throws(SystemError) {
        queue = DispatchQueue(label: label)
        let mailbox = try Mailbox<Item>()
        self.mailbox = mailbox
        loop.track(pending)
        try loop.register(readable: mailbox.fileDescriptor) { [weak self] in
            let items = mailbox.drain()
            self?.deliver(items)
        }
    }

    /// Queues `job` behind the jobs before it; it reports through `post`, as often as it has something to say, and
    /// `handle` gets each report on the loop's thread, in order.
    func run(
        _ job: @escaping @Sendable (_ post: (Report) -> Void) -> Void, then handle: @escaping (Report) -> Void
    ) {
        let number = nextJob
        nextJob += 1
        handlers[number] = handle
        pending.add()
        queue.asyncOnNormalScheduler { [mailbox] in
            job { mailbox.post(.report(job: number, $0)) }
            mailbox.post(.done(job: number))
        }
    }

    /// Shutdown: waits for every queued job; returns the reports the loop has not handled, in order, without
    /// handing them to their handlers.
    @discardableResult func finish() -> [Report] {
        queue.sync {}
        var left: [Report] = []
        for item in mailbox.drain() {
            switch item {
            case .report(_, let report): left.append(report)
            case .done(let job): ended(job)
            }
        }
        return left
    }

    /// On the loop: hands each report to its job's handler, and forgets a job once it ended.
    private func deliver(_ items: [Item]) {
        for item in items {
            switch item {
            case .report(let job, let report): handlers[job]?(report)
            case .done(let job): ended(job)
            }
        }
    }

    private func ended(_ job: UInt64) {
        handlers[job] = nil
        pending.remove()
    }
}
