// StickFaults: real file operations except the Nth call of one kind, which fails with a chosen errno,
// or a stick that reads back other data than it was given, or one that overwrites earlier photos.
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
    /// Whether temp files read back (opened read-only) return their first byte flipped.
    public let corruptsReadBack: Bool
    /// Whether the first photo renamed into place reads back with its first byte flipped once a
    /// second one has been (a fake-capacity stick wrapping around onto what it stored first).
    public let wrapsAround: Bool
    /// The photos renamed into place, in order (for `wrapsAround`).
    private let renamedPhotos = Mutex<[String]>([])
    private let counts = Mutex<[String: Int]>([:])
    private let readBack = Mutex<Set<Int32>>([])
    private let real = SystemFileOperations()

    public init(failing operation: String, at n: Int, with error: Int32) {
        (self.operation, self.failAt, self.error, corruptsReadBack, wrapsAround) = (operation, n, error, false, false)
    }

    /// Real calls, except that every temp file (`….partial`) read back returns its first byte flipped:
    /// a failing or fake-capacity stick that returns other data than it was given.
    public init(corruptingReadBack: Void) {
        (operation, failAt, error, corruptsReadBack, wrapsAround) = ("none", 0, 0, true, false)
    }

    /// Real calls, except that once a second photo is renamed into place, the first one reads back
    /// with its first byte flipped: each copy verifies right after it is written, and the first is
    /// wrong by the end (a fake-capacity stick whose upper half maps onto its lower half).
    public init(wrappingAround: Void) {
        (operation, failAt, error, corruptsReadBack, wrapsAround) = ("none", 0, 0, false, true)
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
        let fd = real.openat(directory, name, flags, mode)
        let reading = fd >= 0 && flags & O_ACCMODE == O_RDONLY
        let overwritten = renamedPhotos.withLock { $0.count >= 2 && $0[0] == name }
        if reading, (corruptsReadBack && name.hasSuffix(".partial")) || (wrapsAround && overwritten) {
            readBack.withLock { _ = $0.insert(fd) }
        }
        return fd
    }
    public func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        if fails("write") { errno = error; return -1 }
        return real.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(65536)))
    }
    public func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        if fails("read") { errno = error; return -1 }
        let count = real.read(fd, buffer)
        if count > 0, readBack.withLock({ $0.contains(fd) }) { buffer[0] ^= 0xFF }
        return count
    }
    public func fsync(_ fd: Int32) -> Int32 {
        if fails("fsync") { errno = error; return -1 }
        return real.fsync(fd)
    }
    public func close(_ fd: Int32) -> Int32 {
        readBack.withLock { _ = $0.remove(fd) }
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
        let result = real.renameatNoReplace(directory, from, to)
        if result == 0, to.hasSuffix(".jpg") { renamedPhotos.withLock { $0.append(to) } }
        return result
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
