// PendingJobs: how many jobs a worker has queued whose reports the loop has not all handled; virtual time waits for them.

import Synchronization

/// The jobs a worker (`Worker`, a device's own thread) was given and has not finished reporting: the loop's virtual
/// clock never jumps while any worker has one, so a simulated run waits for a save or a print as a real one does.
/// Counted when a job is queued and uncounted on the loop's thread after its last report was handled.
final class PendingJobs: Sendable {
    private let count = Atomic<Int>(0)

    /// A job was queued.
    func add() { count.add(1, ordering: .relaxed) }

    /// A job ended and the loop handled what it reported.
    func remove() { count.subtract(1, ordering: .relaxed) }

    /// Whether no job is outstanding.
    var isEmpty: Bool { count.load(ordering: .relaxed) == 0 }
}
