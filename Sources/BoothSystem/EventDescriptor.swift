// EventDescriptor: an eventfd, the counter one thread signals and the event loop waits on.
import CBoothSys
import Glibc

/// An eventfd: a counter another thread adds to and the event loop watches for input, non-blocking. Closed when
/// released.
public final class EventDescriptor: Sendable {
    /// The eventfd, to watch for input.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
    /// Its raw value, for the C calls.
    private let fd: Int32

    /// A counter at zero. The corresponding C function is `eventfd` (EFD_NONBLOCK | EFD_CLOEXEC).
    public init() throws(SystemError) {
        fd = try SystemError.check("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// Any thread: adds one to the counter, making the descriptor readable. The corresponding C function is `write`.
    public func signal() {
        var one: UInt64 = 1
        _ = write(fd, &one, 8)
    }

    /// Takes the counter and sets it to zero; 0 when nothing was signalled (it never waits).
    /// The corresponding C function is `read`.
    @discardableResult
    public func take() -> UInt64 {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
        return count
    }
}
