// SystemdNotifier: systemd's notify protocol (Type=notify).
import BoothTime
import Glibc

/// systemd's notify protocol (Type=notify): READY=1 once idle, and WATCHDOG=1 from the event loop
/// itself at half the unit's WatchdogSec, so a stuck loop gets the booth restarted. A no-op when not
/// started by systemd (no NOTIFY_SOCKET).
final class SystemdNotifier: Sendable {
    private let socketPath: String?
    private let watchdogInterval: Int64?

    /// The notifier systemd's environment asks for (`NOTIFY_SOCKET`, `WATCHDOG_USEC`).
    convenience init() {
        self.init(
            socketPath: getenv("NOTIFY_SOCKET").map { String(cString: $0) },
            watchdogMicroseconds: getenv("WATCHDOG_USEC").flatMap { Int64(String(cString: $0)) })
    }

    /// A notifier sending to `socketPath` (a leading `@`: the abstract namespace), pinging at half of
    /// `watchdogMicroseconds` once started (nil: no watchdog).
    init(socketPath: String?, watchdogMicroseconds: Int64?) {
        self.socketPath = socketPath
        watchdogInterval = watchdogMicroseconds.map { $0 * 1000 / 2 }
    }

    /// Pings the watchdog from the loop's timer, so the ping stops when the loop stops.
    func start(on loop: EventLoop) {
        guard let interval = watchdogInterval, interval > 0 else { return }
        func ping(at deadline: Instant) {
            notify("WATCHDOG=1")
            let next = deadline.advanced(by: interval)
            loop.schedule(at: next) { ping(at: next) }
        }
        ping(at: loop.now())
    }

    /// Sends one notify message.
    func notify(_ message: String) {
        guard var path = socketPath, !path.isEmpty else { return }
        if path.hasPrefix("@") { path = "\0" + path.dropFirst() }  // abstract namespace
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        _ = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    // Never waits: a notify socket whose queue is full (systemd busy) must not hold the loop.
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
                }
            }
        }
    }
}
