// PulledStick: real file operations until a stick is pulled out mid-read; then every call on it fails with EIO.
import BoothSystem
import Glibc
import Synchronization

/// Real calls, except on the stick mounted at `mountPoint`: the `pullAtRead`-th read of its file `pullReading` fails
/// with EIO, as a stick pulled out mid-read answers, and from then on every call on the stick (a descriptor opened
/// below the mount point, or a path below it) fails with EIO too. Calls elsewhere (the booth's own folders) stay
/// real. A descriptor is on the stick when it was opened by a path below `mountPoint`, or relative to a folder that
/// is.
public final class PulledStick: FileOperations {
    /// Where the stick is mounted.
    public let mountPoint: String
    /// The name of the file on the stick being read when it is pulled.
    public let pullReading: String
    /// Which read of that file (1: the first) is the one during which the stick is pulled.
    public let pullAtRead: Int
    private let real = SystemFileOperations()
    /// The stick's open descriptors with the name each was opened by, the reads of `pullReading` so far, and the pull.
    private let state = Mutex<(stickFDs: [FileDescriptor: String], reads: Int, pulled: Bool)>(([:], 0, false))

    /// A stick at `mountPoint` pulled out during the `pullAtRead`-th read of its file `pullReading` (nil: never).
    public init(mountPoint: String, pullReading: String?, atRead pullAtRead: Int = 1) {
        self.mountPoint = mountPoint
        self.pullReading = pullReading ?? ""
        self.pullAtRead = pullReading == nil ? Int.max : pullAtRead
    }

    /// Whether the stick has been pulled.
    public var pulled: Bool { state.withLock { $0.pulled } }
    /// How many descriptors on the stick are open now.
    public var openOnStick: Int { state.withLock { $0.stickFDs.count } }

    private func onStick(_ path: String) -> Bool { path == mountPoint || path.hasPrefix(mountPoint + "/") }
    private func onStick(_ fd: FileDescriptor) -> Bool { state.withLock { $0.stickFDs[fd] != nil } }

    /// `call()`, unless `stick` and the stick is gone: then `failure`, errno EIO.
    private func guarded<T>(_ stick: Bool, _ failure: T, _ call: () -> T) -> T {
        guard stick else { return call() }
        if state.withLock({ $0.pulled }) {
            errno = EIO
            return failure
        }
        return call()
    }

    private func opened(_ fd: FileDescriptor?, stick: Bool, name: String) -> FileDescriptor? {
        if let fd, stick { state.withLock { $0.stickFDs[fd] = String(name.split(separator: "/").last ?? "") } }
        return fd
    }

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        let stick = onStick(path)
        return guarded(stick, nil) { opened(real.open(path, flags, mode), stick: stick, name: path) }
    }
    public func openat(_ directory: FileDescriptor, _ name: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        let stick = onStick(directory)
        return guarded(stick, nil) { opened(real.openat(directory, name, flags, mode), stick: stick, name: name) }
    }
    public func read(_ fd: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        let stick = onStick(fd)
        let pullsNow = state.withLock { s in
            guard !s.pulled, s.stickFDs[fd] == pullReading else { return false }
            s.reads += 1
            if s.reads >= pullAtRead { s.pulled = true }
            return s.pulled
        }
        if pullsNow {
            errno = EIO
            return -1
        }
        return guarded(stick, -1) { real.read(fd, buffer) }
    }
    public func close(_ fd: FileDescriptor) -> Int32 {
        state.withLock { _ = $0.stickFDs.removeValue(forKey: fd) }
        return real.close(fd)
    }
    public func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int {
        guarded(onStick(fd), -1) { real.write(fd, buffer) }
    }
    public func fsync(_ fd: FileDescriptor) -> Int32 { guarded(onStick(fd), -1) { real.fsync(fd) } }
    public func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        guarded(onStick(from) || onStick(to), -1) { real.renameNoReplace(from, to) }
    }
    public func rename(_ from: String, _ to: String) -> Int32 {
        guarded(onStick(from) || onStick(to), -1) { real.rename(from, to) }
    }
    public func unlink(_ path: String) -> Int32 { guarded(onStick(path), -1) { real.unlink(path) } }
    public func renameatNoReplace(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        guarded(onStick(directory), -1) { real.renameatNoReplace(directory, from, to) }
    }
    public func renameat(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        guarded(onStick(directory), -1) { real.renameat(directory, from, to) }
    }
    public func unlinkat(_ directory: FileDescriptor, _ name: String, _ flags: Int32) -> Int32 {
        guarded(onStick(directory), -1) { real.unlinkat(directory, name, flags) }
    }
    public func mkdirat(_ directory: FileDescriptor, _ name: String, _ mode: mode_t) -> Int32 {
        guarded(onStick(directory), -1) { real.mkdirat(directory, name, mode) }
    }
    public func mkdir(_ path: String, _ mode: mode_t) -> Int32 { guarded(onStick(path), -1) { real.mkdir(path, mode) } }
    public func lseek(_ fd: FileDescriptor, _ offset: off_t, _ whence: Int32) -> off_t {
        guarded(onStick(fd), -1) { real.lseek(fd, offset, whence) }
    }
    public func fstat(_ fd: FileDescriptor, _ info: inout stat) -> Int32 {
        guarded(onStick(fd), -1) { real.fstat(fd, &info) }
    }
    public func fstatat(_ directory: FileDescriptor, _ name: String, _ info: inout stat, _ flags: Int32) -> Int32 {
        guarded(onStick(directory), -1) { real.fstatat(directory, name, &info, flags) }
    }
    public func lstat(_ path: String, _ info: inout stat) -> Int32 {
        guarded(onStick(path), -1) { real.lstat(path, &info) }
    }
    public func statvfs(_ path: String, _ info: inout statvfs) -> Int32 {
        guarded(onStick(path), -1) { real.statvfs(path, &info) }
    }
    public func fstatvfs(_ fd: FileDescriptor, _ info: inout statvfs) -> Int32 {
        guarded(onStick(fd), -1) { real.fstatvfs(fd, &info) }
    }
    public func fileSystemType(_ fd: FileDescriptor, _ type: inout Int) -> Int32 {
        guarded(onStick(fd), -1) { real.fileSystemType(fd, &type) }
    }
    public func flock(_ fd: FileDescriptor, _ operation: Int32) -> Int32 {
        guarded(onStick(fd), -1) { real.flock(fd, operation) }
    }
    public func syncfs(_ fd: FileDescriptor) -> Int32 { guarded(onStick(fd), -1) { real.syncfs(fd) } }
    public func preallocate(_ fd: FileDescriptor, _ size: Int64) -> Int32 {
        guarded(onStick(fd), -1) { real.preallocate(fd, size) }
    }
    public func dropCache(_ fd: FileDescriptor) -> Int32 { guarded(onStick(fd), -1) { real.dropCache(fd) } }
    public func names(in directory: FileDescriptor) -> [String]? {
        guarded(onStick(directory), nil) { real.names(in: directory) }
    }
}
