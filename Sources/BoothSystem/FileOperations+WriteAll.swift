// FileOperations+WriteAll: the one loop that writes bytes whole through the seam, or throws the write's failure.
import Glibc
import SystemPackage

extension FileOperations {
    /// Writes `bytes` whole to `fd`, a write a signal interrupts made again, or throws the failure of the write that
    /// stopped it (ENOSPC on a full disk; EIO for a write that wrote nothing and said no more), named as writes to
    /// `path`: the one write loop of DurableFile, AppendingFile and CacheFile.
    func writeAll(_ bytes: some RandomAccessCollection<UInt8>, to fd: FileDescriptor, path: String) throws(SystemError)
    {
        var offset = 0
        while offset < bytes.count {
            let written = try SystemError.check("write", path) {
                bytes.withContiguousStorageIfAvailable { buffer in
                    write(fd, UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[offset...]))
                }
                    ?? Array(bytes).withUnsafeBytes { raw in
                        write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
                    }
            }
            guard written > 0 else { throw SystemError("write", path, errno: EIO) }
            offset += written
        }
    }
}
