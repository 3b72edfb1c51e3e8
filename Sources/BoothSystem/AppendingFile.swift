// AppendingFile: a file written at its end through one descriptor (the events file), read back and cut short.
import Glibc
import SystemPackage

/// A file written at its end through one descriptor (the booth's events file, or standard output), with what
/// repairing its end after a power cut takes: its size, reads at an offset, and cutting it short. The descriptor
/// is closed when released, unless it is a standard stream's.
public final class AppendingFile {
    /// The descriptor.
    public let descriptor: FileDescriptor
    private let owned: Bool
    private let operations = SystemFileOperations()

    /// A standard stream (standard output), left open when released.
    public init(_ stream: StandardStream) {
        descriptor = stream.fileDescriptor
        owned = false
    }

    /// A new, empty file at `path` (replacing what is there), write-only.
    /// The corresponding C function is `open` with O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC.
    public init(truncating path: String, mode: mode_t) throws(SystemError) {
        let operations = operations
        descriptor = try SystemError.check("open", path) {
            operations.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        }
        owned = true
    }

    /// The file at `path` (made when missing), readable, every write going to its end.
    /// The corresponding C function is `open` with O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC.
    public init(appendingTo path: String, mode: mode_t) throws(SystemError) {
        let operations = operations
        descriptor = try SystemError.check("open", path) {
            operations.open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        }
        owned = true
    }

    deinit {
        if owned { _ = operations.close(descriptor) }
    }

    /// The file's size in bytes; 0 when it cannot be read. The corresponding C function is `fstat`.
    public func size() -> Int {
        var info = stat()
        guard operations.fstat(descriptor, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// Reads up to `buffer.count` bytes from `offset` (the file position stays); the count read, or -1 with errno.
    /// The corresponding C function is `pread`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        pread(descriptor.rawValue, buffer.baseAddress, buffer.count, off_t(offset))
    }

    /// Cuts the file to `size` bytes; false when that failed. The corresponding C function is `ftruncate`.
    @discardableResult
    public func truncate(to size: Int) -> Bool {
        ftruncate(descriptor.rawValue, off_t(size)) == 0
    }

    /// Makes what was written durable. The corresponding C function is `fsync`.
    public func sync(_ path: String) throws(SystemError) {
        let operations = operations
        let descriptor = descriptor
        _ = try SystemError.check("fsync", path) { operations.fsync(descriptor) }
    }

    /// Writes `bytes` whole, or as much as goes before a write fails (a full disk, a closed pipe); returns how many
    /// were written. A write a signal interrupts is made again. The corresponding C function is `write`.
    public func write(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = SystemError.retryingInterrupts {
                bytes.withUnsafeBytes { operations.write(descriptor, UnsafeRawBufferPointer(rebasing: $0[offset...])) }
            }
            if n <= 0 { break }
            offset += n
        }
        return offset
    }

    /// Writes `bytes` whole, or throws the failure of the write that stopped it (ENOSPC on a full disk; EIO for a
    /// write that wrote nothing and said no more), named as writes to `path`.
    public func writeAll(_ bytes: [UInt8], path: String) throws(SystemError) {
        try operations.writeAll(bytes, to: descriptor, path: path)
    }
}
