import CBoothSys
import Glibc

/// SIGTERM, SIGINT and SIGHUP delivered through a signalfd into the event loop (never as handlers).
final class SignalSource {
    /// The signalfd.
    let fileDescriptor: Int32

    /// Blocks the signals for normal delivery and opens a signalfd for them.
    init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        try SystemError.check("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        fileDescriptor = try SystemError.check("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit {
        close(fileDescriptor)
    }

    /// The signals pending now.
    func drain() -> [Int32] {
        var received: [Int32] = []
        var info = signalfd_siginfo()
        while read(fileDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            received.append(Int32(info.ssi_signo))
        }
        return received
    }
}
