// TimerDescriptor: a timerfd on the kernel's monotonic clock, armed at an absolute deadline.
import BoothTime
import CBoothSys
import Glibc

/// A timer descriptor on CLOCK_MONOTONIC (`KernelClock`'s clock), non-blocking: readable once its absolute deadline
/// has passed, so an event loop waits for its timers in the same `epoll_wait` as for its devices. Closed when
/// released.
public final class TimerDescriptor {
    /// The timerfd, to watch for input.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
    /// Its raw value, for the C calls.
    private let fd: Int32

    /// A disarmed timer. The corresponding C function is `timerfd_create` (TFD_NONBLOCK | TFD_CLOEXEC).
    public init() throws(SystemError) {
        fd = try SystemError.check("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        }
    }

    deinit {
        close(fd)
    }

    /// Arms the timer to fire once when the kernel's clock reaches `deadline`, or disarms it (nil). A zero deadline
    /// would disarm, so one at or before the clock's origin is armed 1 ns after it (it fires at once).
    /// The corresponding C function is `timerfd_settime` with TFD_TIMER_ABSTIME.
    public func arm(at deadline: Instant?) {
        var spec = itimerspec()
        if let deadline {
            spec.it_value = max(deadline, Instant(nanoseconds: 1)).timespec
        }
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Takes the number of expirations since the last call, making the descriptor unready; 0 when it has not fired
    /// (it never waits). The corresponding C function is `read`.
    @discardableResult
    public func acknowledge() -> UInt64 {
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
        return expirations
    }
}
