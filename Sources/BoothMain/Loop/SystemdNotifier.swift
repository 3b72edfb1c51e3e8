// SystemdNotifier: systemd's notify protocol (Type=notify).
import BoothCore
import Glibc

/// systemd's notify protocol (Type=notify): READY=1 once idle, and WATCHDOG=1 from the event loop
/// itself at half the unit's WatchdogSec, so a stuck loop gets the booth restarted. A no-op when not
/// started by systemd (no NOTIFY_SOCKET).
final class SystemdNotifier {
    private let socketPath: String?
    private let watchdogInterval: Int64?

    init() {
        socketPath = getenv("NOTIFY_SOCKET").map { String(cString: $0) }
        watchdogInterval = getenv("WATCHDOG_USEC").flatMap { Int64(String(cString: $0)) }.map { $0 * 1000 / 2 }
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
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
    }
}
