// DatagramExchange: one UDP question to an IPv4 address and the first answer back, within a deadline.
import BoothTime
import Glibc

/// Asks a UDP service once and waits a bounded time for its answer: how `booth hotspot` checks that the hotspot's name
/// server answers phones.
public enum DatagramExchange {
    /// Sends `payload` from a new socket connected to `address` (dotted IPv4) port `port`, and returns the first
    /// datagram back from there within `timeout`; nil when none comes, or when nothing listens there (the
    /// kernel's "port unreachable"). Throws when the socket cannot be made or the address is not IPv4.
    public static func ask(
        _ payload: [UInt8], ipv4 address: String, port: UInt16, timeout: Duration
    ) throws(SystemError) -> [UInt8]? {
        let subject = "\(address):\(port)"
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        guard inet_pton(AF_INET, address, &target.sin_addr) == 1 else {
            throw SystemError("inet_pton", subject, errno: EINVAL, detail: "not an IPv4 address")
        }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError("socket", subject, errno: errno) }
        defer { close(fd) }
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw SystemError("connect", subject, errno: errno) }
        let sent = payload.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        guard sent == payload.count else {
            if sent < 0, errno == ECONNREFUSED { return nil }
            throw SystemError("send", subject, errno: sent < 0 ? errno : EMSGSIZE)
        }
        let clock = KernelClock()
        let deadline = clock.now() + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = (deadline - clock.now()).inMilliseconds
            guard left > 0 else { return nil }
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(left, Int64(Int32.max))))
            if polled < 0 {
                if errno == EINTR { continue }
                throw SystemError("poll", subject, errno: errno)
            }
            if polled == 0 { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return Array(buffer[..<count]) }
            switch errno {
            case EINTR, EAGAIN: continue
            case ECONNREFUSED: return nil
            default: throw SystemError("recv", subject, errno: errno)
            }
        }
    }
}
