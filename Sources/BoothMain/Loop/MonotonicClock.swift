import BoothCore
import Glibc

/// The one place the booth reads the monotonic clock (CLOCK_MONOTONIC, the clock of kernel GPIO
/// event timestamps, timerfd deadlines and libcamera sensor timestamps).
enum MonotonicClock {
    /// Now.
    static func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }
}
