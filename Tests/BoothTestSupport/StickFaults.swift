// StickFaults: real file operations except the Nth call of one kind, which fails with a chosen errno,
// or a stick that reads back other data than it was given, or one that overwrites earlier photos.
import BoothSystem
import Glibc
import PhotoStore
import Synchronization

/// Real calls, path-based and directory-relative alike, except that the `failAt`-th call of
/// `operation` fails with `error`. Every call of the seam has a kind: "open", "write", "fsync", "rename",
/// "read", "mkdir", "close", "unlink", "stat" (fstat, fstatat, lstat), "lseek", "statvfs" (and fstatvfs),
/// "fstype", "flock", "syncfs", "preallocate", "fadvise", "list" (`names(in:)`); `kinds` lists them.
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
    private let readBack = Mutex<Set<FileDescriptor>>([])
    private let real = SystemFileOperations()

    public init(failing operation: String, at n: Int, with error: Int32) {
        (self.operation, self.failAt, self.error, corruptsReadBack, wrapsAround) = (operation, n, error, false, false)
    }

    /// Calls before `arm()` are neither counted nor failed (a store opened through the seam, then saved to).
    private let armed = Mutex(true)

    /// Counts and fails calls from now on only.
    public func disarm() { armed.withLock { $0 = false } }

    /// Counts and fails calls from now on (after `disarm()`).
    public func arm() { armed.withLock { $0 = true } }

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
        guard armed.withLock({ $0 }) else { return false }
        return counts.withLock { c in
            c[name, default: 0] += 1
            return name == operation && c[name] == failAt
        }
    }

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        if fails("open") { errno = error; return nil }
        return real.open(path, flags, mode)
    }
    public func openat(_ directory: FileDescriptor, _ name: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        if fails("open") { errno = error; return nil }
        let fd = real.openat(directory, name, flags, mode)
        let overwritten = renamedPhotos.withLock { $0.count >= 2 && $0[0] == name }
        if let fd, flags & O_ACCMODE == O_RDONLY,
            (corruptsReadBack && name.hasSuffix(".partial")) || (wrapsAround && overwritten)
        {
            readBack.withLock { _ = $0.insert(fd) }
        }
        return fd
    }
    public func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int {
        if fails("write") { errno = error; return -1 }
        return real.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(65536)))
    }
    public func read(_ fd: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        if fails("read") { errno = error; return -1 }
        let count = real.read(fd, buffer)
        if count > 0, readBack.withLock({ $0.contains(fd) }) { buffer[0] ^= 0xFF }
        return count
    }
    public func fsync(_ fd: FileDescriptor) -> Int32 {
        if fails("fsync") { errno = error; return -1 }
        return real.fsync(fd)
    }
    public func close(_ fd: FileDescriptor) -> Int32 {
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
    public func renameatNoReplace(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        let result = real.renameatNoReplace(directory, from, to)
        if result == 0, to.hasSuffix(".jpg") { renamedPhotos.withLock { $0.append(to) } }
        return result
    }
    public func renameat(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        if fails("rename") { errno = error; return -1 }
        return real.renameat(directory, from, to)
    }
    public func mkdirat(_ directory: FileDescriptor, _ name: String, _ mode: mode_t) -> Int32 {
        if fails("mkdir") { errno = error; return -1 }
        return real.mkdirat(directory, name, mode)
    }
    public func unlink(_ path: String) -> Int32 { faulted("unlink", -1) { real.unlink(path) } }
    public func unlinkat(_ directory: FileDescriptor, _ name: String, _ flags: Int32) -> Int32 {
        faulted("unlink", -1) { real.unlinkat(directory, name, flags) }
    }
    public func mkdir(_ path: String, _ mode: mode_t) -> Int32 { faulted("mkdir", -1) { real.mkdir(path, mode) } }
    public func lseek(_ fd: FileDescriptor, _ offset: off_t, _ whence: Int32) -> off_t {
        faulted("lseek", -1) { real.lseek(fd, offset, whence) }
    }
    public func fstat(_ fd: FileDescriptor, _ info: inout stat) -> Int32 {
        faulted("stat", -1) { real.fstat(fd, &info) }
    }
    public func fstatat(_ directory: FileDescriptor, _ name: String, _ info: inout stat, _ flags: Int32) -> Int32 {
        faulted("stat", -1) { real.fstatat(directory, name, &info, flags) }
    }
    public func lstat(_ path: String, _ info: inout stat) -> Int32 { faulted("stat", -1) { real.lstat(path, &info) } }
    public func statvfs(_ path: String, _ info: inout statvfs) -> Int32 {
        faulted("statvfs", -1) { real.statvfs(path, &info) }
    }
    public func fstatvfs(_ fd: FileDescriptor, _ info: inout statvfs) -> Int32 {
        faulted("statvfs", -1) { real.fstatvfs(fd, &info) }
    }
    public func fileSystemType(_ fd: FileDescriptor, _ type: inout Int) -> Int32 {
        faulted("fstype", -1) { real.fileSystemType(fd, &type) }
    }
    public func flock(_ fd: FileDescriptor, _ operation: Int32) -> Int32 {
        faulted("flock", -1) { real.flock(fd, operation) }
    }
    public func syncfs(_ fd: FileDescriptor) -> Int32 { faulted("syncfs", -1) { real.syncfs(fd) } }
    public func preallocate(_ fd: FileDescriptor, _ size: Int64) -> Int32 {
        faulted("preallocate", -1) { real.preallocate(fd, size) }
    }
    public func dropCache(_ fd: FileDescriptor) -> Int32 { faulted("fadvise", -1) { real.dropCache(fd) } }
    public func names(in directory: FileDescriptor) -> [String]? { faulted("list", nil) { real.names(in: directory) } }

    /// `call()`, unless this is the call of `kind` to fail: then `failure`, errno set.
    private func faulted<T>(_ kind: String, _ failure: T, _ call: () -> T) -> T {
        if fails(kind) {
            errno = error
            return failure
        }
        return call()
    }

    /// Every kind of call, as `failing:` names it.
    public static let kinds = [
        "open", "write", "fsync", "rename", "read", "mkdir", "close", "unlink", "stat", "lseek", "statvfs", "fstype",
        "flock", "syncfs", "preallocate", "fadvise", "list",
    ]
}
