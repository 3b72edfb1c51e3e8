// DirectoryWatch: the kernel's word (inotify) that names in a folder appeared, moved, changed or went.
import Glibc

/// The kernel's word (inotify) that a name in one folder was created, finished writing, moved in or out, or
/// deleted (and, when asked, had its owner or mode changed): no polling. Its descriptor is non-blocking and close-on-exec; wait for it to be readable (epoll, a
/// dispatch source), then `changes()` reads every event queued so far.
public final class DirectoryWatch: @unchecked Sendable {
    /// The descriptor to wait on.
    public var descriptor: FileDescriptor { FileDescriptor(rawValue: raw) }
    /// Its raw value, for the C calls.
    private let raw: Int32
    /// The folder watched.
    public let path: String

    /// Watches `path`; throws when the folder cannot be watched (missing, not a folder, no permission, the
    /// kernel's watch limit). With `attributes`, a name whose owner or mode changed is named too (a device node udev
    /// gives a group once the kernel made it).
    public init(_ path: String, attributes: Bool = false) throws(SystemError) {
        self.path = path
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw SystemError("inotify_init1", path, errno: errno) }
        let mask =
            UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE | IN_ONLYDIR)
            | (attributes ? UInt32(IN_ATTRIB) : 0)
        guard inotify_add_watch(fd, path, mask) >= 0 else {
            let failure = SystemError("inotify_add_watch", path, errno: errno)
            close(fd)
            throw failure
        }
        raw = fd
    }

    deinit { close(raw) }

    /// The names events were queued for since the last call, in order (a name may come more than once); empty
    /// when none is queued. An overflowed queue (the kernel dropped events) gives `overflowed`, meaning: look at
    /// the whole folder again.
    public func changes() throws(SystemError) -> (names: [String], overflowed: Bool) {
        var names: [String] = []
        var overflowed = false
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = SystemError.retryingInterrupts {
                buffer.withUnsafeMutableBytes { read(raw, $0.baseAddress, $0.count) }
            }
            if n < 0 {
                if errno == EAGAIN { break }
                throw SystemError("read", "inotify of \(path)", errno: errno)
            }
            if n == 0 { break }
            let events = Self.parse(buffer[0..<n])
            names += events.names
            overflowed = overflowed || events.overflowed
        }
        return (names, overflowed)
    }

    /// The names in a buffer of `struct inotify_event`s (wd, mask, cookie, len, then `len` bytes of name padded
    /// with NULs), and whether one was the queue's overflow.
    static func parse(_ bytes: ArraySlice<UInt8>) -> (names: [String], overflowed: Bool) {
        var names: [String] = []
        var overflowed = false
        var at = bytes.startIndex
        func word(_ offset: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + offset + $1]) << (8 * UInt32($1)) }
        }
        while bytes.endIndex - at >= 16 {
            let mask = word(4)
            let length = Int(word(12))
            guard bytes.endIndex - at - 16 >= length else { break }
            if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
            let name = bytes[(at + 16)..<(at + 16 + length)].prefix { $0 != 0 }
            if !name.isEmpty { names.append(String(decoding: name, as: UTF8.self)) }
            at += 16 + length
        }
        return (names, overflowed)
    }
}
