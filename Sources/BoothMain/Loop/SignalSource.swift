// SignalSource: SIGTERM, SIGINT, SIGHUP and SIGUSR1 through a signalfd into the event loop (never as handlers).
import CBoothSys
import Glibc

/// SIGTERM, SIGINT, SIGHUP (stop) and SIGUSR1 (`booth hotspot on` says the booth's Wi-Fi is on) delivered through a
/// signalfd into the event loop (never as handlers).
final class SignalSource {
    /// The signalfd.
    let fileDescriptor: Int32

    /// The signals the booth handles.
    static let handled = [SIGTERM, SIGINT, SIGHUP, SIGUSR1]

    /// The signal `booth hotspot on` sends the running booth.
    static let hotspotStarted = SIGUSR1

    /// Blocks `signals` for normal delivery in this thread and every thread it starts later. Call it
    /// first thing, before libcamera or Dispatch start threads, or a signal could land on one of them
    /// and kill the process instead of reaching the loop.
    static func block(_ signals: [Int32] = handled) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
    }

    /// Blocks the signals (see `block`) and opens a signalfd for them.
    init(signals: [Int32] = handled) throws(SystemError) {
        Self.block(signals)
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
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
