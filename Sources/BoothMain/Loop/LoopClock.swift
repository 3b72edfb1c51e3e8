// LoopClock: the event loop's time; the one place the booth's Swift code reads the monotonic clock.
import BoothCore
import Glibc

/// An event loop's time: the kernel's CLOCK_MONOTONIC (the clock of GPIO edge timestamps, timerfd
/// deadlines and libcamera sensor timestamps), plus, on a virtual clock, the idle time the loop
/// skipped. Each loop has its own; the controller and the devices read time through their loop.
final class LoopClock {
    /// True for the simulator's `--fast` runs and tests: the loop skips idle waits (`skip(to:)`).
    let isVirtual: Bool
    /// Nanoseconds skipped so far; always 0 on a real clock.
    private(set) var skipped: Int64 = 0

    /// A real clock, or a virtual one.
    init(virtual: Bool = false) {
        isVirtual = virtual
    }

    /// Now.
    func now() -> Instant {
        Instant(nanoseconds: Self.kernelNow() + skipped)
    }

    /// Moves a virtual clock on to `deadline` (nothing when it has passed).
    func skip(to deadline: Instant) {
        precondition(isVirtual, "only a virtual clock skips time")
        let now = now()
        if deadline > now { skipped += deadline.since(now) }
    }

    /// The kernel's CLOCK_MONOTONIC, without skipped time (timerfd deadlines, kernel timestamps).
    static func kernelNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
