import BoothCore
import Glibc

/// The one place the booth reads the monotonic clock (CLOCK_MONOTONIC, the clock of kernel GPIO
/// event timestamps, timerfd deadlines and libcamera sensor timestamps).
enum MonotonicClock {
    /// Nanoseconds skipped by the simulator's virtual time (`EventLoop.virtualTime`); 0 on a real booth.
    /// Only the event loop's thread reads or changes it.
    nonisolated(unsafe) static var skipped: Int64 = 0

    /// Now.
    static func now() -> Instant {
        Instant(nanoseconds: kernelNow() + skipped)
    }

    /// The kernel's CLOCK_MONOTONIC, without skipped time (for arming timerfds).
    static func kernelNow() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
