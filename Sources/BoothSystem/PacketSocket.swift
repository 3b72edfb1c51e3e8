import BoothTime
// PacketSocket: a Unix SOCK_SEQPACKET socket at a path: a listener and its connections, and a client's one question.
import CBoothSys
import Glibc

/// A Unix socket of SOCK_SEQPACKET type, named by a path: messages keep their bounds and a connection carries the
/// asker's identity (no reply address to make writable). The booth listens on one for the gallery's print requests
/// (`listen`, `accept`, `receive`, `send`, never waiting); the gallery asks one question and waits a bounded time for
/// the answer (`ask`). Closed when it is released. A connection accepted is non-blocking and closed on exec
/// (`booth_accept_nonblocking`: accept4).
public final class PacketSocket: Sendable {
    /// The socket's descriptor, for the event loop to watch.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: raw) }
    /// Its raw value, for the C calls.
    private let raw: Int32

    private init(raw: Int32) { self.raw = raw }

    deinit { _ = Glibc.close(raw) }

    /// A socket listening at `path` (non-blocking), its file given `mode` (so a group may connect). A socket file left
    /// there by an earlier run is replaced; any other file there is an error (EEXIST), never removed. The C functions
    /// are `socket`, `bind`, `chmod` and `listen`.
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 8) throws(SystemError) -> PacketSocket {
        var info = stat()
        if lstat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFSOCK else {
                throw SystemError("bind", path, errno: EEXIST, detail: "a file that is not a socket is in its place")
            }
            _ = unlink(path)
        }
        var address = try Self.address(path)
        let socket = try PacketSocket(
            raw: SystemError.check("socket", path) {
                Glibc.socket(
                    AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
            })
        _ = try SystemError.check("bind", path) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(socket.raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        _ = try SystemError.check("chmod", path) { chmod(path, mode) }
        _ = try SystemError.check("listen", path) { Glibc.listen(socket.raw, backlog) }
        return socket
    }

    /// The next connection waiting on a listening socket (non-blocking), or nil when none waits.
    public func accept() throws(SystemError) -> PacketSocket? {
        let fd = SystemError.retryingInterrupts { booth_accept_nonblocking(raw) }
        guard fd >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED { return nil }
            throw SystemError("accept4", errno: errno)
        }
        return PacketSocket(raw: fd)
    }

    /// The next message on a connection, at most `limit` bytes (a longer one is cut: `truncated`), without waiting:
    /// nil when none has come yet; an empty message when the peer closed.
    public func receive(limit: Int) throws(SystemError) -> (bytes: [UInt8], truncated: Bool)? {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = SystemError.retryingInterrupts {
            buffer.withUnsafeMutableBytes {
                recv(raw, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_TRUNC))
            }
        }
        guard count >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
            throw SystemError("recv", errno: errno)
        }
        return (Array(buffer.prefix(min(count, limit))), count > limit)
    }

    /// Sends `bytes` as one message without waiting; false when it could not be sent (the peer gone, its queue full).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let sent = SystemError.retryingInterrupts {
            bytes.withUnsafeBytes {
                Glibc.send(raw, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
            }
        }
        return sent == bytes.count
    }

    /// A client's connection to the socket at `path` (blocking; ENOENT or ECONNREFUSED when nothing listens there).
    /// The C functions are `socket` and `connect`.
    public static func connect(to path: String) throws(SystemError) -> PacketSocket {
        var address = try Self.address(path)
        let socket = PacketSocket(
            raw: try SystemError.check("socket", path) {
                Glibc.socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            })
        _ = try SystemError.check("connect", path) {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(socket.raw, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        return socket
    }

    /// Connects to the socket at `path`, sends `question` and returns the answer, waiting at most `timeout`
    /// for it (ETIMEDOUT after that; ENOENT or ECONNREFUSED when nothing listens there; an empty answer when the other
    /// side closed without one). The C functions are `send`, `poll` and `recv`, after `connect(to:)`.
    public static func ask(
        _ question: [UInt8], at path: String, limit: Int = 4096, timeout: Duration
    ) throws(SystemError) -> [UInt8] {
        let socket = try connect(to: path)
        _ = try SystemError.check("send", path) {
            question.withUnsafeBytes { Glibc.send(socket.raw, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        var ready = pollfd(fd: socket.raw, events: Int16(POLLIN), revents: 0)
        let polled = try SystemError.check("poll", path) { poll(&ready, 1, Int32(clamping: timeout.inMilliseconds)) }
        guard polled > 0 else { throw SystemError("recv", path, errno: ETIMEDOUT) }
        guard let answer = try socket.receive(limit: limit) else { throw SystemError("recv", path, errno: EAGAIN) }
        return answer.bytes
    }

    /// The socket address of `path` (ENAMETOOLONG when it does not fit).
    private static func address(_ path: String) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SystemError("bind", path, errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }
}
