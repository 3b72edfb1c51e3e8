// KernelClock: the kernel's CLOCK_MONOTONIC, the one place the booth reads it, and its timestamps as instants.
import BoothTime
import Glibc

/// The kernel's monotonic clock (CLOCK_MONOTONIC): the clock of timerfd deadlines and of the timestamps GPIO
/// edges, ALSA and libcamera carry. Every other clock (an event loop's, the gallery's) reads this one.
public final class KernelClock: MonotonicClock, Sendable {
    /// The kernel's clock.
    public init() {}

    /// Now, from `clock_gettime(CLOCK_MONOTONIC)` (a vDSO call: no system call).
    public func now() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(ts)
    }
}

extension Instant {
    /// A kernel CLOCK_MONOTONIC `timespec` (ALSA's htstamps, clock_gettime) as an instant.
    public init(_ ts: timespec) {
        self.init(nanoseconds: Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec))
    }

    /// A kernel timestamp in unsigned nanoseconds (GPIO edges, libcamera's sensor timestamps) as an instant.
    public init(kernelNanoseconds: UInt64) {
        self.init(nanoseconds: Int64(clamping: kernelNanoseconds))
    }

    /// This instant as the kernel's unsigned nanoseconds (what the C shims take); 0 before the origin.
    public var kernelNanoseconds: UInt64 { UInt64(clamping: nanoseconds) }

    /// This instant as a `timespec` (timerfd deadlines); the origin for instants before it.
    public var timespec: Glibc.timespec {
        let ns = max(nanoseconds, 0)
        return Glibc.timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
    }
}
