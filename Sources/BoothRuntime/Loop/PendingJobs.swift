// PendingJobs: how many jobs a worker has queued whose reports the loop has not all handled; virtual time waits for them.

/// The jobs a worker (`Worker`, a device's own thread) was given and has not finished reporting: the loop's virtual
/// clock never jumps while any worker has one, so a simulated run waits for a save or a print as a real one does.
/// Counted when a job is queued and uncounted after its last report was handled, both on the loop's thread (a
/// `Worker` is used there alone), so a plain count.
final class PendingJobs {
    private var count = 0

    /// A job was queued.
    func add() { count += 1 }

    /// A job ended and the loop handled what it reported.
    func remove() { count -= 1 }

    /// Whether no job is outstanding.
    var isEmpty: Bool { count == 0 }
}
