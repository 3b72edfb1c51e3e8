// UnixDatagram: one datagram to a Unix socket by its path, never waiting (systemd's notify socket).
import Glibc

/// One datagram to a Unix datagram socket by its path, from a socket of its own, never waiting: how the booth tells
/// systemd it is ready and alive (the notify protocol's `NOTIFY_SOCKET`).
public enum UnixDatagram {
    /// Sends `message` to the socket at `path` (a leading `@`: the abstract namespace). Never waits: a socket whose
    /// queue is full (its reader busy) drops it. False when it was not sent (no such socket, a path too long).
    /// The corresponding C functions are `socket` and `sendto` (MSG_DONTWAIT | MSG_NOSIGNAL).
    @discardableResult
    public static func send(_ message: String, to path: String) -> Bool {
        var path = path
        if path.hasPrefix("@") { path = "\0" + path.dropFirst() }  // abstract namespace
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let sent = message.withCString { text in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, text, strlen(text), Int32(MSG_NOSIGNAL | MSG_DONTWAIT), $0, length)
                }
            }
        }
        return sent >= 0
    }
}
