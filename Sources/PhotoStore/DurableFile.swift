import Glibc

/// Crash-safe file creation: temp name → write → fsync → rename → fsync directory. After `write`
/// returns, the file is complete under its final name and survives a power cut; if it throws, no
/// file is left under either name. A reader never sees a partial file under the final name.
public struct DurableFile: Sendable {
    /// The calls it makes (real by default; a failing seam in tests).
    public var operations: any FileOperations

    /// A writer over `operations`.
    public init(operations: any FileOperations = SystemFileOperations()) {
        self.operations = operations
    }

    /// Writes `bytes` as `directory/name` via `directory/temporaryName`. Never replaces an existing file
    /// unless `replacing` (then the old content stays whole until the new one is durable).
    public func write(
        _ bytes: [UInt8], directory: String, name: String, temporaryName: String, replacing: Bool = false
    ) throws(StoreError) {
        let temporary = "\(directory)/\(temporaryName)"
        let final = "\(directory)/\(name)"
        if replacing { _ = operations.unlink(temporary) }  // A crash's leftover; the final file is intact.
        let fd = operations.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw StoreError("open", temporary, errno: errno) }
        var open = true
        do throws(StoreError) {
            try writeAll(bytes, to: fd, path: temporary)
            guard operations.fsync(fd) == 0 else { throw StoreError("fsync", temporary, errno: errno) }
            open = false
            guard operations.close(fd) == 0 else { throw StoreError("close", temporary, errno: errno) }
        } catch {
            if open { _ = operations.close(fd) }
            _ = operations.unlink(temporary)
            throw error
        }
        let renamed = replacing ? operations.rename(temporary, final) : operations.renameNoReplace(temporary, final)
        guard renamed == 0 else {
            let failure = StoreError("rename", final, errno: errno)
            _ = operations.unlink(temporary)
            throw failure
        }
        do throws(StoreError) {
            try syncDirectory(directory)
        } catch {
            // The file is complete but its name may not survive a power cut: take it back (a replaced
            // file is complete either way, so it stays).
            if !replacing { _ = operations.unlink(final) }
            throw error
        }
    }

    /// fsyncs a directory, making renames and unlinks in it durable.
    public func syncDirectory(_ directory: String) throws(StoreError) {
        let fd = operations.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw StoreError("open", directory, errno: errno) }
        defer { _ = operations.close(fd) }
        guard operations.fsync(fd) == 0 else { throw StoreError("fsync", directory, errno: errno) }
    }

    private func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(StoreError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                operations.write(fd, UnsafeRawBufferPointer(rebasing: raw[offset...]))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw StoreError("write", path, errno: errno)
            }
            guard written > 0 else { throw StoreError("write", path, errno: EIO) }
            offset += written
        }
    }
}
