// Worker: a serial thread of its own for slow jobs, reporting back to the event loop through a mailbox.
import BoothSystem
import Dispatch

/// A serial thread for jobs too slow for the event loop (encoding and saving a photo, exporting to a stick, reading
/// a sensor), run on the normal scheduler so they never compete with the loop's SCHED_FIFO thread, and the mailbox
/// through which the jobs report back, handled on the loop thread: what the save, export and health workers share.
/// Each job counts as pending work from `run` until the loop has handled its last report (`PendingJobs`), so the
/// loop's virtual clock waits for it without anyone keeping count by hand.
final class Worker<Report: Sendable>: Sendable {
    /// What the mailbox carries: a job's report, or the end of a job.
    private enum Item: Sendable {
        case report(Report)
        case done
    }

    private let queue: DispatchQueue
    private let mailbox: Mailbox<Item>
    private let pending = PendingJobs()

    /// A worker whose thread is named `label` (it shows in a stack trace); `handle` gets every report on `loop`'s
    /// thread, in the order the jobs posted them.
    init(label: String, loop: EventLoop, handle: @escaping (Report) -> Void) throws(SystemError) {
        queue = DispatchQueue(label: label)
        let mailbox = try Mailbox<Item>()
        self.mailbox = mailbox
        loop.track(pending)
        try loop.register(readable: mailbox.fileDescriptor) { [pending] in
            for item in mailbox.drain() {
                switch item {
                case .report(let report): handle(report)
                case .done: pending.remove()
                }
            }
        }
    }

    /// Queues `job` behind the jobs before it; it reports through `post`, as often as it has something to say.
    func run(_ job: @escaping @Sendable (_ post: (Report) -> Void) -> Void) {
        pending.add()
        queue.asyncOnNormalScheduler { [mailbox] in
            job { mailbox.post(.report($0)) }
            mailbox.post(.done)
        }
    }

    /// Shutdown: waits for every queued job; returns the reports the loop has not handled, in order.
    @discardableResult func finish() -> [Report] {
        queue.sync {}
        return mailbox.drain().compactMap { item in
            guard case .report(let report) = item else {
                pending.remove()
                return nil
            }
            return report
        }
    }
}
