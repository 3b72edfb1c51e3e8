import CBoothSys
import Glibc

/// The file system calls the photo store makes, behind a seam so tests can fail any one of them
/// (the Nth write, fsync or rename with EIO or ENOSPC) and check that nothing partial is left.
///
/// Every call returns -1 and sets errno on failure, like the C function it stands for.
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
        // RENAME_NOREPLACE is 1; not every file system has renameat2 (FAT on old kernels: EINVAL),
        // so fall back to link + unlink, which also never replaces.
        let result = booth_rename_noreplace(from, to)
        guard result == -1, errno == EINVAL || errno == ENOSYS else { return result }
        guard Glibc.link(from, to) == 0 else { return Glibc.rename(from, to) }
        return Glibc.unlink(from)
    }
    public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    public func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
}
