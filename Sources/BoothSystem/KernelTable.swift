// KernelTable: a kernel file kept open and read again from its start at each change (/proc/self/mountinfo).
import Glibc
import SystemPackage

/// A kernel file kept open and read again from its start whenever it changes: the kernel flags
/// /proc/self/mountinfo (EPOLLPRI | EPOLLERR on its descriptor) at every mount and unmount, and a reading of the
/// same descriptor from offset 0 is the table as it is now.
public final class KernelTable {
    /// The open descriptor, for the event loop to watch.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: fd) }
    /// Its raw value, for the C calls.
    private let fd: Int32
    private let path: String

    /// `path` opened for reading. The corresponding C function is `open`.
    public init(path: String) throws(SystemError) {
        self.path = path
        fd = try SystemError.check("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
    }

    deinit {
        close(fd)
    }

    /// The whole table now, at most `limit` bytes. The corresponding C functions are `lseek` and `read`.
    public func read(limit: Int) throws(SystemError) -> [UInt8] {
        try SystemError.check("lseek", path) { lseek(fd, 0, SEEK_SET) }
        do {
            return try FileReading.readAll(fileDescriptor, limit: limit)
        } catch {
            throw error.systemError(reading: path)
        }
    }
}
