// StickFaults: real file operations except the Nth call of one kind, which fails with a chosen errno.
import Glibc
import PhotoStore
import Synchronization

/// Real calls, path-based and directory-relative alike, except that the `failAt`-th call of
/// `operation` ("open", "write", "fsync", "rename", "read", "mkdir", "close") fails with `error`.
/// Writes are cut to 64 KiB to exercise the write loop.
public final class StickFaults: FileOperations {
    public let operation: String
    public let failAt: Int
    public let error: Int32
    private let counts = Mutex<[String: Int]>([:])
    private let real = SystemFileOperations()

    public init(failing operation: String, at n: Int, with error: Int32) {
        (self.operation, self.failAt, self.error) = (operation, n, error)
    }

    /// Whether the planned failure happened.
    public var fired: Bool { counts.withLock { ($0[operation] ?? 0) >= failAt } }

    private func fails(_ name: String) -> Bool {
        counts.withLock { c in
            c[name, default: 0] += 1
            return name == operation && c[name] == failAt
        }
    }

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        if fails("open") { errno = error; return -1 }
        return real.open(path, flags, mode)
    }
    public func openat(_ directory: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        if fails("open") { errno = error; return -1 }
        return real.openat(directory, name, flags, mode)
    }
    public func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        if fails("write") { errno = error; return -1 }
        return real.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(65536)))
    }
    public func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        if fails("read") { errno = error; return -1 }
        return real.read(fd, buffer)
    }
    public func fsync(_ fd: Int32) -> Int32 {
        if fails("fsync") { errno = error; return -1 }
        return real.fsync(fd)
    }
    public func close(_ fd: Int32) -> Int32 {
        if fails("close") { _ = real.close(fd); errno = error; return -1 }
        return real.close(fd)
    }
    public func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        return real.renameNoReplace(from, to)
    }
    public func rename(_ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        return real.rename(from, to)
    }
    public func renameatNoReplace(_ directory: Int32, _ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        return real.renameatNoReplace(directory, from, to)
    }
    public func renameat(_ directory: Int32, _ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        return real.renameat(directory, from, to)
    }
    public func mkdirat(_ directory: Int32, _ name: String, _ mode: mode_t) -> Int32 {
        if fails("mkdir") { errno = error; return -1 }
        return real.mkdirat(directory, name, mode)
    }
    public func unlink(_ path: String) -> Int32 { real.unlink(path) }
    public func unlinkat(_ directory: Int32, _ name: String, _ flags: Int32) -> Int32 {
        real.unlinkat(directory, name, flags)
    }
}
