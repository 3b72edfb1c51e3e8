// Worker: a serial thread of its own for slow jobs, reporting back to the event loop through a mailbox.
import BoothSystem
import Dispatch

/// A serial thread for jobs too slow for the event loop (encoding and saving a photo, exporting to a stick, reading
/// a sensor), run on the normal scheduler so they never compete with the loop's SCHED_FIFO thread, and the mailbox
/// through which the jobs report back, handled on the loop thread: what the save, export and health workers share.
final class Worker<Report: Sendable>: Sendable {
    private let queue: DispatchQueue
    private let mailbox: Mailbox<Report>

    /// A worker whose thread is named `label` (it shows in a stack trace); `handle` gets every report on `loop`'s
    /// thread, in the order the jobs posted them.
    init(label: String, loop: EventLoop, handle: @escaping (Report) -> Void) throws(SystemError) {
        queue = DispatchQueue(label: label)
        let mailbox = try Mailbox<Report>()
        self.mailbox = mailbox
        try loop.register(readable: mailbox.fileDescriptor) {
            for report in mailbox.drain() { handle(report) }
        }
    }

    /// Queues `job` behind the jobs before it; it reports through `post`, as often as it has something to say.
    func run(_ job: @escaping @Sendable (_ post: (Report) -> Void) -> Void) {
        queue.asyncOnNormalScheduler { [mailbox] in job(mailbox.post) }
    }

    /// Shutdown: waits for every queued job; returns the reports the loop has not handled, in order.
    @discardableResult func finish() -> [Report] {
        queue.sync {}
        return mailbox.drain()
    }
}
