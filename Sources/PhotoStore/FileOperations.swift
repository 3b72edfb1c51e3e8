// FileOperations: the file system calls of the store and the exporter, behind a seam tests can fail.
import CBoothSys
import Glibc

/// The file system calls the photo store makes, behind a seam so tests can fail any one of them
/// (the Nth write, fsync or rename with EIO or ENOSPC) and check that nothing partial is left.
///
/// Every call returns -1 and sets errno on failure, like the C function it stands for. The calls
/// relative to a directory descriptor (`openat` ...) are what export uses on a stick, so a symbolic
/// link planted there is never followed; they have real default implementations, so a seam only
/// overrides the ones it fails.
public protocol FileOperations: Sendable {
    /// The corresponding C function is `open`.
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// The corresponding C function is `write`.
    func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int
    /// The corresponding C function is `fsync`.
    func fsync(_ fd: Int32) -> Int32
    /// The corresponding C function is `close`.
    func close(_ fd: Int32) -> Int32
    /// The corresponding C function is `renameat2` with RENAME_NOREPLACE: never replaces a file.
    func renameNoReplace(_ from: String, _ to: String) -> Int32
    /// The corresponding C function is `rename`: replaces `to` atomically.
    func rename(_ from: String, _ to: String) -> Int32
    /// The corresponding C function is `unlink`.
    func unlink(_ path: String) -> Int32

    /// The corresponding C function is `openat`.
    func openat(_ directory: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32
    /// The corresponding C function is `read`.
    func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int
    /// The corresponding C function is `renameat2` with RENAME_NOREPLACE, both names in `directory`.
    func renameatNoReplace(_ directory: Int32, _ from: String, _ to: String) -> Int32
    /// The corresponding C function is `renameat`, both names in `directory`: replaces `to` atomically.
    func renameat(_ directory: Int32, _ from: String, _ to: String) -> Int32
    /// The corresponding C function is `unlinkat`.
    func unlinkat(_ directory: Int32, _ name: String, _ flags: Int32) -> Int32
    /// The corresponding C function is `mkdirat`.
    func mkdirat(_ directory: Int32, _ name: String, _ mode: mode_t) -> Int32
}

extension FileOperations {
    public func openat(_ directory: Int32, _ name: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        Glibc.openat(directory, name, flags, mode)
    }
    public func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        Glibc.read(fd, buffer.baseAddress, buffer.count)
    }
    public func renameatNoReplace(_ directory: Int32, _ from: String, _ to: String) -> Int32 {
        // Where renameat2 is missing (FAT on old kernels): link + unlink, which also never replaces;
        // FAT has no links either, so then check that `to` is free and rename (the booth is the only
        // writer in its export folders, so nothing can take the name in between).
        let result = booth_renameat_noreplace(directory, from, to)
        guard result == -1, errno == EINVAL || errno == ENOSYS else { return result }
        if Glibc.linkat(directory, from, directory, to, 0) == 0 { return Glibc.unlinkat(directory, from, 0) }
        guard errno == EPERM || errno == EOPNOTSUPP else { return -1 }
        var info = stat()
        if fstatat(directory, to, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            errno = EEXIST
            return -1
        }
        guard errno == ENOENT else { return -1 }
        return Glibc.renameat(directory, from, directory, to)
    }
    public func renameat(_ directory: Int32, _ from: String, _ to: String) -> Int32 {
        Glibc.renameat(directory, from, directory, to)
    }
    public func unlinkat(_ directory: Int32, _ name: String, _ flags: Int32) -> Int32 {
        Glibc.unlinkat(directory, name, flags)
    }
    public func mkdirat(_ directory: Int32, _ name: String, _ mode: mode_t) -> Int32 {
        Glibc.mkdirat(directory, name, mode)
    }
}

/// The real calls.
public struct SystemFileOperations: FileOperations {
    /// The real calls.
    public init() {}

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { Glibc.open(path, flags, mode) }
    public func write(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
        Glibc.write(fd, buffer.baseAddress, buffer.count)
    }
    public func fsync(_ fd: Int32) -> Int32 { Glibc.fsync(fd) }
    public func close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
    public func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        // RENAME_NOREPLACE is 1; not every file system has renameat2 (FAT on old kernels: EINVAL).
        let result = booth_rename_noreplace(from, to)
        guard result == -1, errno == EINVAL || errno == ENOSYS else { return result }
        return Self.renameNoReplaceWithoutRenameat2(from, to)
    }

    /// `renameNoReplace` where the file system has no renameat2: link + unlink, which also never
    /// replaces; where it has no links either (FAT), rename once `to` is checked free (the booth is
    /// the only writer of its folders). A taken name fails with EEXIST: it is never replaced.
    static func renameNoReplaceWithoutRenameat2(_ from: String, _ to: String) -> Int32 {
        if Glibc.link(from, to) == 0 { return Glibc.unlink(from) }
        guard errno == EPERM || errno == EOPNOTSUPP else { return -1 }
        var info = stat()
        if lstat(to, &info) == 0 {
            errno = EEXIST
            return -1
        }
        guard errno == ENOENT else { return -1 }
        return Glibc.rename(from, to)
    }
    public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    public func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
}
