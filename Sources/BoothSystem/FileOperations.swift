// FileOperations: the file system calls of the store, the exporter and the sound import, behind a seam tests can fail.
import CBoothSys
import Glibc
import SystemPackage

/// Every file system call the photo store, a stick export and a sound import make, behind a seam so tests can fail any
/// one of them (the Nth write, fsync, stat or listing with EIO or ENOSPC) and check that nothing partial
/// is left and nothing is lost.
///
/// Descriptors are swift-system's `FileDescriptor`. Every call fails as the C function it stands for does, errno set: a
/// call that opens answers nil where C answers -1, the others -1. The calls
/// relative to a directory descriptor (`openat` ...) are what export uses on a stick, so a symbolic
/// link planted there is never followed; they have real default implementations, so a seam only
/// overrides the ones it fails.
public protocol FileOperations: Sendable {
    /// The corresponding C function is `open`.
    func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor?
    /// The corresponding C function is `write`.
    func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int
    /// The corresponding C function is `fsync`.
    func fsync(_ fd: FileDescriptor) -> Int32
    /// The corresponding C function is `close`.
    func close(_ fd: FileDescriptor) -> Int32
    /// The corresponding C function is `renameat2` with RENAME_NOREPLACE: never replaces a file.
    func renameNoReplace(_ from: String, _ to: String) -> Int32
    /// The corresponding C function is `rename`: replaces `to` atomically.
    func rename(_ from: String, _ to: String) -> Int32
    /// The corresponding C function is `unlink`.
    func unlink(_ path: String) -> Int32

    /// The corresponding C function is `openat`.
    func openat(_ directory: FileDescriptor, _ name: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor?
    /// The corresponding C function is `read`.
    func read(_ fd: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer) -> Int
    /// The corresponding C function is `renameat2` with RENAME_NOREPLACE, both names in `directory`.
    func renameatNoReplace(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32
    /// The corresponding C function is `renameat`, both names in `directory`: replaces `to` atomically.
    func renameat(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32
    /// The corresponding C function is `unlinkat`.
    func unlinkat(_ directory: FileDescriptor, _ name: String, _ flags: Int32) -> Int32
    /// The corresponding C function is `mkdirat`.
    func mkdirat(_ directory: FileDescriptor, _ name: String, _ mode: mode_t) -> Int32
    /// The corresponding C function is `mkdir`.
    func mkdir(_ path: String, _ mode: mode_t) -> Int32
    /// The corresponding C function is `lseek`.
    func lseek(_ fd: FileDescriptor, _ offset: off_t, _ whence: Int32) -> off_t
    /// The corresponding C function is `fstat`.
    func fstat(_ fd: FileDescriptor, _ info: inout stat) -> Int32
    /// The corresponding C function is `fstatat`.
    func fstatat(_ directory: FileDescriptor, _ name: String, _ info: inout stat, _ flags: Int32) -> Int32
    /// The corresponding C function is `lstat`.
    func lstat(_ path: String, _ info: inout stat) -> Int32
    /// The corresponding C function is `statvfs`.
    func statvfs(_ path: String, _ info: inout statvfs) -> Int32
    /// The corresponding C function is `fstatvfs`.
    func fstatvfs(_ fd: FileDescriptor, _ info: inout statvfs) -> Int32
    /// The corresponding C function is `fstatfs` (the file system's magic number in `type`).
    func fileSystemType(_ fd: FileDescriptor, _ type: inout Int) -> Int32
    /// The corresponding C function is `flock`.
    func flock(_ fd: FileDescriptor, _ operation: Int32) -> Int32
    /// The corresponding C function is `syncfs`.
    func syncfs(_ fd: FileDescriptor) -> Int32
    /// The corresponding C function is `fallocate` (the file's clusters reserved up to `size`).
    func preallocate(_ fd: FileDescriptor, _ size: Int64) -> Int32
    /// The corresponding C function is `posix_fadvise` with POSIX_FADV_DONTNEED over the whole file
    /// (the next reads come from the device); returns 0, or -1 with errno set.
    func dropCache(_ fd: FileDescriptor) -> Int32
    /// The names in the open directory `directory`, without "." and "..": `opendir` on a descriptor of its
    /// own, then `readdir` to the end. Nil, with errno set, when it cannot be read.
    func names(in directory: FileDescriptor) -> [String]?
}

extension FileOperations {
    public func openat(_ directory: FileDescriptor, _ name: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        FileDescriptor(opened: Glibc.openat(directory.rawValue, name, flags, mode))
    }
    public func read(_ fd: FileDescriptor, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        Glibc.read(fd.rawValue, buffer.baseAddress, buffer.count)
    }
    public func renameatNoReplace(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        let result = booth_renameat_noreplace(directory.rawValue, from, to)
        guard result == -1, errno == EINVAL || errno == ENOSYS else { return result }
        return SystemFileOperations.renameNoReplaceWithoutRenameat2(directory.rawValue, from, to)
    }
    public func renameat(_ directory: FileDescriptor, _ from: String, _ to: String) -> Int32 {
        Glibc.renameat(directory.rawValue, from, directory.rawValue, to)
    }
    public func unlinkat(_ directory: FileDescriptor, _ name: String, _ flags: Int32) -> Int32 {
        Glibc.unlinkat(directory.rawValue, name, flags)
    }
    public func mkdirat(_ directory: FileDescriptor, _ name: String, _ mode: mode_t) -> Int32 {
        Glibc.mkdirat(directory.rawValue, name, mode)
    }
    public func mkdir(_ path: String, _ mode: mode_t) -> Int32 { Glibc.mkdir(path, mode) }
    public func lseek(_ fd: FileDescriptor, _ offset: off_t, _ whence: Int32) -> off_t {
        Glibc.lseek(fd.rawValue, offset, whence)
    }
    public func fstat(_ fd: FileDescriptor, _ info: inout stat) -> Int32 { Glibc.fstat(fd.rawValue, &info) }
    public func fstatat(_ directory: FileDescriptor, _ name: String, _ info: inout stat, _ flags: Int32) -> Int32 {
        Glibc.fstatat(directory.rawValue, name, &info, flags)
    }
    public func lstat(_ path: String, _ info: inout stat) -> Int32 { Glibc.lstat(path, &info) }
    public func statvfs(_ path: String, _ info: inout statvfs) -> Int32 { cStatvfs(path, &info) }
    public func fstatvfs(_ fd: FileDescriptor, _ info: inout statvfs) -> Int32 { Glibc.fstatvfs(fd.rawValue, &info) }
    public func fileSystemType(_ fd: FileDescriptor, _ type: inout Int) -> Int32 { booth_fs_type(fd.rawValue, &type) }
    public func flock(_ fd: FileDescriptor, _ operation: Int32) -> Int32 { cFlock(fd.rawValue, operation) }
    public func syncfs(_ fd: FileDescriptor) -> Int32 { booth_syncfs(fd.rawValue) }
    public func preallocate(_ fd: FileDescriptor, _ size: Int64) -> Int32 { booth_preallocate(fd.rawValue, size) }
    public func dropCache(_ fd: FileDescriptor) -> Int32 {
        let code = posix_fadvise(fd.rawValue, 0, 0, POSIX_FADV_DONTNEED)
        if code == 0 { return 0 }
        errno = code
        return -1
    }
    public func names(in directory: FileDescriptor) -> [String]? {
        let fd = Glibc.openat(directory.rawValue, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard let stream = fdopendir(fd) else {
            let code = errno
            Glibc.close(fd)
            errno = code
            return nil
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else { break }
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        if errno != 0 { return nil }  // readdir failed (EIO on a failing stick), not the end
        return names
    }
}

// statvfs and flock share their names with C structs; inside the protocol's extension the methods'
// names hide both, so they are called from here.
private func cStatvfs(_ path: String, _ info: inout statvfs) -> Int32 { statvfs(path, &info) }
private func cFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }

/// The real calls.
public struct SystemFileOperations: FileOperations {
    /// The real calls.
    public init() {}

    public func open(_ path: String, _ flags: Int32, _ mode: mode_t) -> FileDescriptor? {
        FileDescriptor(opened: Glibc.open(path, flags, mode))
    }
    public func write(_ fd: FileDescriptor, _ buffer: UnsafeRawBufferPointer) -> Int {
        Glibc.write(fd.rawValue, buffer.baseAddress, buffer.count)
    }
    public func fsync(_ fd: FileDescriptor) -> Int32 { Glibc.fsync(fd.rawValue) }
    public func close(_ fd: FileDescriptor) -> Int32 { Glibc.close(fd.rawValue) }
    public func renameNoReplace(_ from: String, _ to: String) -> Int32 {
        // RENAME_NOREPLACE is 1; not every file system has renameat2 (FAT on old kernels: EINVAL).
        let result = booth_rename_noreplace(from, to)
        guard result == -1, errno == EINVAL || errno == ENOSYS else { return result }
        return Self.renameNoReplaceWithoutRenameat2(AT_FDCWD, from, to)
    }

    /// The no-replace rename of `from` to `to` in `directory` (`AT_FDCWD`: paths) where the file system
    /// has no renameat2 (FAT on old kernels): link + unlink, which also never replaces; where it has no
    /// links either (FAT), rename once `to` is checked free (the booth is the only writer of its
    /// folders, and one export at a time holds a stick's lock, so nothing takes the name in between).
    /// A taken name fails with EEXIST: it is never replaced.
    static func renameNoReplaceWithoutRenameat2(_ directory: Int32, _ from: String, _ to: String) -> Int32 {
        if Glibc.linkat(directory, from, directory, to, 0) == 0 { return Glibc.unlinkat(directory, from, 0) }
        guard errno == EPERM || errno == EOPNOTSUPP else { return -1 }
        var info = stat()
        if Glibc.fstatat(directory, to, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            errno = EEXIST
            return -1
        }
        guard errno == ENOENT else { return -1 }
        return Glibc.renameat(directory, from, directory, to)
    }
    public func rename(_ from: String, _ to: String) -> Int32 { Glibc.rename(from, to) }
    public func unlink(_ path: String) -> Int32 { Glibc.unlink(path) }
}

extension FileOperations {
    /// The folder at `path` opened for reading (a link to one followed: a mount point typed by hand). The
    /// corresponding C function is `open` with O_DIRECTORY.
    public func openFolder(_ path: String) throws(SystemError) -> FileDescriptor {
        try SystemError.check("open", path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0) }
    }

    /// The folder `name` in the open folder `directory` opened for reading, never following a symbolic link (a link
    /// fails with ELOOP, a file with ENOTDIR); `path` names it in errors. The corresponding C function is `openat`
    /// with O_DIRECTORY and O_NOFOLLOW.
    public func openFolder(
        _ name: String, in directory: FileDescriptor, path: String
    ) throws(SystemError)
        -> FileDescriptor
    {
        try SystemError.check("open", path) {
            openat(directory, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        }
    }
}
