// SignalSource: SIGTERM, SIGINT, SIGHUP and SIGUSR1 through a signalfd into the event loop (never as handlers).
import BoothSystem

/// SIGTERM, SIGINT, SIGHUP (stop) and SIGUSR1 (`booth hotspot on` says the booth's Wi-Fi is on) delivered through a
/// signalfd into the event loop (never as handlers).
package final class SignalSource {
    private let descriptor: SignalDescriptor

    /// The signalfd.
    var fileDescriptor: FileDescriptor { descriptor.fileDescriptor }

    /// The signals the booth handles.
    static let handled = [
        SignalDescriptor.terminate, SignalDescriptor.interrupt, SignalDescriptor.hangUp, SignalDescriptor.user1,
    ]

    /// The signal `booth hotspot on` sends the running booth.
    package static let hotspotStarted = SignalDescriptor.user1

    /// Blocks `signals` for normal delivery in this thread and every thread it starts later. Call it
    /// first thing, before libcamera or Dispatch start threads, or a signal could land on one of them
    /// and kill the process instead of reaching the loop.
    package static func block(_ signals: [Int32] = handled) {
        SignalDescriptor.block(signals)
    }

    /// Blocks the signals (see `block`) and opens a signalfd for them.
    init(signals: [Int32] = handled) throws(SystemError) {
        Self.block(signals)
        descriptor = try SignalDescriptor(signals)
    }

    /// The signals pending now.
    func drain() -> [Int32] {
        descriptor.drain()
    }
}
