// QueueExecutor: a serial executor on a dispatch queue of its own, for an actor whose work blocks.
import Dispatch

/// A serial executor that runs its jobs on a dispatch queue of its own: an actor that makes blocking calls (D-Bus
/// round trips to timedated) runs them there, off Swift's cooperative threads, which serve every connection.
final class QueueExecutor: SerialExecutor {
    /// Where the jobs run.
    let queue: DispatchQueue

    /// An executor on a new serial queue named `label`.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
