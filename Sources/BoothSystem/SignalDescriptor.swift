// SignalDescriptor: a signalfd, signals read as input instead of delivered to handlers.
import CBoothSys
import Glibc

/// A signalfd: signals blocked for normal delivery are read from it as input (an event loop watches it), never
/// run as handlers. Non-blocking; closed when released.
public final class SignalDescriptor {
    /// SIGTERM.
    public static let terminate = SIGTERM
    /// SIGINT.
    public static let interrupt = SIGINT
    /// SIGHUP.
    public static let hangUp = SIGHUP
    /// SIGUSR1.
    public static let user1 = SIGUSR1

    /// The signalfd, to watch for input.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
    /// Its raw value, for the C calls.
    private let fd: Int32

    /// Blocks `signals` for normal delivery in the calling thread and every thread it starts later (they inherit
    /// the mask). The corresponding C function is `pthread_sigmask` with SIG_BLOCK.
    public static func block(_ signals: [Int32]) {
        var mask = Self.mask(signals)
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    /// A descriptor that reads `signals` (block them first, or they are delivered as before).
    /// The corresponding C function is `signalfd` (SFD_NONBLOCK | SFD_CLOEXEC).
    public init(_ signals: [Int32]) throws(SystemError) {
        var mask = Self.mask(signals)
        fd = try SystemError.check("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit {
        close(fd)
    }

    /// The signals pending now, in the order they are read (empty when none is: it never waits).
    /// The corresponding C function is `read`.
    public func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }

    private static func mask(_ signals: [Int32]) -> sigset_t {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        return mask
    }
}
