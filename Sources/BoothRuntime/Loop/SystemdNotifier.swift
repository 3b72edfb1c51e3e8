// SystemdNotifier: systemd's notify protocol (Type=notify).
import BoothSystem
import BoothTime

/// systemd's notify protocol (Type=notify): READY=1 once idle, and WATCHDOG=1 from the event loop
/// itself at half the unit's WatchdogSec, so a stuck loop gets the booth restarted. A no-op when not
/// started by systemd (no NOTIFY_SOCKET).
final class SystemdNotifier: Sendable {
    private let socketPath: String?
    private let watchdogInterval: Duration?

    /// The notifier systemd's environment asks for (`NOTIFY_SOCKET`, `WATCHDOG_USEC`), each variable read through
    /// `variable`: the process's own environment, or a test's.
    convenience init(environment variable: (String) -> String? = Environment.value) {
        self.init(
            socketPath: variable("NOTIFY_SOCKET"),
            watchdog: variable("WATCHDOG_USEC").flatMap { Int64($0) }.map { .microseconds($0) })
    }

    /// A notifier sending to `socketPath` (a leading `@`: the abstract namespace), pinging at half of
    /// `watchdog` (systemd's WATCHDOG_USEC) once started (nil: no watchdog).
    init(socketPath: String?, watchdog: Duration?) {
        self.socketPath = socketPath
        watchdogInterval = watchdog.map { $0 / 2 }
    }

    /// Pings the watchdog from the loop's timer, so the ping stops when the loop stops.
    func start(on loop: EventLoop) {
        guard let interval = watchdogInterval, interval > .zero else { return }
        func ping(at deadline: Instant) {
            notify("WATCHDOG=1")
            let next = deadline.advanced(by: interval)
            loop.schedule(at: next) { ping(at: next) }
        }
        ping(at: loop.now())
    }

    /// Sends one notify message.
    func notify(_ message: String) {
        guard let path = socketPath, !path.isEmpty else { return }
        // Never waits: a notify socket whose queue is full (systemd busy) must not hold the loop.
        UnixDatagram.send(message, to: path)
    }
}
