// FileToSend: a file opened for the kernel to send, checked to be the one planned, its pages asked for ahead.
import Glibc

/// Opens a file whose bytes the kernel will send from the page cache (sendfile): never through a symbolic link, only
/// when it is still the regular file planned (the same device and inode, at least `end` bytes long), and with its
/// pages asked for ahead (`posix_fadvise` WILLNEED), so the reads from a slow card start at once, in the background,
/// rather than one socket's worth at a time on the thread that sends.
public enum FileToSend {
    /// A descriptor open for reading on `path`, which the caller closes. Throws when the file cannot be opened, is a
    /// link or not a regular file (ELOOP, EINVAL), is another file than `identity` (ESTALE) or shorter than `end`
    /// (ESTALE). The corresponding C functions are `open`, `fstat` and `posix_fadvise`.
    public static func open(_ path: String, identity: FileIdentity, end: UInt64) throws(SystemError) -> FileDescriptor {
        let fd = try SystemError.check("open", path) { Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        var info = stat()
        var problem: SystemError?
        if Glibc.fstat(fd, &info) != 0 {
            problem = SystemError("fstat", path, errno: Glibc.errno)
        } else if (info.st_mode & S_IFMT) != S_IFREG {
            problem = SystemError("open", path, errno: EINVAL, detail: "not a regular file")
        } else if FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) != identity
            || UInt64(info.st_size) < end
        {
            problem = SystemError(
                "open", path, errno: ESTALE, detail: "replaced or shortened since it was listed",
                fix: "download again")
        }
        if let problem {
            Glibc.close(fd)
            throw problem
        }
        _ = posix_fadvise(fd, 0, off_t(end), POSIX_FADV_WILLNEED)
        return FileDescriptor(rawValue: fd)
    }
}
