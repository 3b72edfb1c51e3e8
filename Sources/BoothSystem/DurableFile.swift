// DurableFile: crash-safe file creation.
import CBoothSys
import Checksum
import Glibc
import SystemPackage

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

    /// Writes `bytes` as the file at `path` (a name alone is in the current folder) via `.NAME.tmp` beside it: the
    /// write below, for callers that hold a whole path.
    public func write(_ bytes: [UInt8], path: String, replacing: Bool = false, mode: mode_t = 0o644) throws(SystemError)
    {
        let file = FilePath(path)
        let (directory, name) = (file.folder, file.name)
        try write(
            bytes, directory: directory, name: name, temporaryName: ".\(name).tmp", replacing: replacing, mode: mode)
    }

    /// Writes `bytes` as `directory/name` via `directory/temporaryName`, with permissions `mode` (less the
    /// umask). Never replaces an existing file unless `replacing` (then the old content stays whole until the new one
    /// is durable).
    public func write(
        _ bytes: [UInt8], directory: String, name: String, temporaryName: String, replacing: Bool = false,
        mode: mode_t = 0o644
    ) throws(SystemError) {
        let temporary = "\(directory)/\(temporaryName)"
        let final = "\(directory)/\(name)"
        if replacing { _ = operations.unlink(temporary) }  // A crash's leftover; the final file is intact.
        let fd = try SystemError.check("open", temporary) {
            operations.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        }
        var open = true
        do throws(SystemError) {
            try operations.writeAll(bytes, to: fd, path: temporary)
            guard operations.fsync(fd) == 0 else { throw SystemError("fsync", temporary, errno: errno) }
            open = false
            guard operations.close(fd) == 0 else { throw SystemError("close", temporary, errno: errno) }
        } catch {
            if open { _ = operations.close(fd) }
            _ = operations.unlink(temporary)
            throw error
        }
        let renamed = replacing ? operations.rename(temporary, final) : operations.renameNoReplace(temporary, final)
        guard renamed == 0 else {
            let failure = SystemError("rename", final, errno: errno)
            _ = operations.unlink(temporary)
            throw failure
        }
        do throws(SystemError) {
            try syncDirectory(directory)
        } catch {
            // The file is complete but its name may not survive a power cut: take it back (a replaced
            // file is complete either way, so it stays).
            if !replacing { _ = operations.unlink(final) }
            throw error
        }
    }

    /// What `write(_:into:...)` writes.
    public enum Contents: Sendable {
        /// Bytes in memory.
        case bytes([UInt8])
        /// Everything readable from an open descriptor (read from its current offset to its end);
        /// `path` names it in errors.
        case file(descriptor: FileDescriptor, path: String)
        /// `head`, then everything readable from `descriptor` from byte `skip` on (whatever its offset): a copy of
        /// a file with its first `skip` bytes replaced by `head`; `path` names it in errors.
        case spliced(head: [UInt8], descriptor: FileDescriptor, skip: Int64, path: String)

        /// How many bytes there are to write, when known (asked through `operations`).
        func remainingSize(_ operations: any FileOperations) -> Int64? {
            switch self {
            case .bytes(let bytes): return Int64(bytes.count)
            case .file(let fd, _):
                var info = stat()
                let offset = operations.lseek(fd, 0, SEEK_CUR)
                guard operations.fstat(fd, &info) == 0, offset >= 0, info.st_mode & S_IFMT == S_IFREG else {
                    return nil
                }
                return max(0, Int64(info.st_size) - Int64(offset))
            case .spliced(let head, let fd, let skip, _):
                var info = stat()
                guard operations.fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                return Int64(head.count) + max(0, Int64(info.st_size) - skip)
            }
        }
    }

    /// The size, CRC-32 and SHA-256 of `contents`, read through `operations` (a descriptor from where `write` would
    /// read it).
    public static func digest(
        of contents: Contents, operations: any FileOperations
    ) throws(SystemError) -> ContentDigest {
        var summer = ContentDigest.Summer()
        try DurableFile(operations: operations).stream(contents) { chunk throws(SystemError) in summer.update(chunk) }
        return summer.digest
    }

    /// Writes `contents` as `name` in the open directory `directory` via `temporaryName`, every name
    /// relative to that descriptor and never following a symbolic link. Same steps and promises as
    /// `write(_:directory:name:temporaryName:replacing:)`; with `verify`, the temp file is read back
    /// from the device (its cached pages dropped first) and compared before it gets its final name,
    /// so a final name only ever holds a complete, verified file. `directoryPath` names it in errors.
    /// Returns the size, CRC-32 and SHA-256 of what was written.
    @discardableResult
    public func write(
        _ contents: Contents, into directory: FileDescriptor, directoryPath: String, name: String,
        temporaryName: String,
        replacing: Bool = false, verify: Bool = false
    ) throws(SystemError) -> ContentDigest {
        let temporary = "\(directoryPath)/\(temporaryName)"
        let final = "\(directoryPath)/\(name)"
        if replacing { _ = operations.unlinkat(directory, temporaryName, 0) }
        let fd = try SystemError.check("open", temporary) {
            operations.openat(directory, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        }
        var open = true
        let digest: ContentDigest
        do throws(SystemError) {
            // FAT writes a growing file's folder entry (size, first cluster) and its cluster chain in
            // no fixed order, so a stick pulled mid-copy can keep an entry whose chain ends in a free
            // cluster; deleting that temp file later makes the kernel remount the stick read-only.
            // Reserving every cluster first and flushing them makes the chain complete before any
            // data: a pulled copy is only ever shorter than its chain, which deletes cleanly.
            if let expected = contents.remainingSize(operations), expected > 0,
                operations.preallocate(fd, expected) == 0
            {
                guard operations.fsync(fd) == 0 else { throw SystemError("fsync", temporary, errno: errno) }
            }
            var summer = ContentDigest.Summer()
            try stream(contents) { chunk throws(SystemError) in
                try operations.writeAll(chunk, to: fd, path: temporary)
                summer.update(chunk)
            }
            digest = summer.digest
            guard operations.fsync(fd) == 0 else { throw SystemError("fsync", temporary, errno: errno) }
            open = false
            guard operations.close(fd) == 0 else { throw SystemError("close", temporary, errno: errno) }
            if verify {
                try self.verify(
                    temporaryName, in: directory, path: temporary, size: digest.size, checksum: digest.crc32)
            }
        } catch {
            if open { _ = operations.close(fd) }
            _ = operations.unlinkat(directory, temporaryName, 0)
            throw error
        }
        // A replaced file stays open until its name points at the new content on the device: its
        // clusters are freed when the last descriptor closes, never while the name still points at them.
        let replaced = replacing ? operations.openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0) : nil
        defer { if let replaced { _ = operations.close(replaced) } }
        let renamed =
            replacing
            ? operations.renameat(directory, temporaryName, name)
            : operations.renameatNoReplace(directory, temporaryName, name)
        guard renamed == 0 else {
            let failure = SystemError("rename", final, errno: errno)
            _ = operations.unlinkat(directory, temporaryName, 0)
            throw failure
        }
        // FAT cannot rename atomically: the file's first cluster and size live in its folder entry,
        // and vfat_rename adds the new entry empty (cluster 0, size 0), removes the old one, and
        // leaves the real values to the file's own write-back. The folder is flushed first, so the
        // device only ever holds the old entry, or the new one still empty (a 0-byte file a pull can
        // leave; the next export removes it), or the complete new one: never both entries on the
        // same clusters, which fsck "repairs" by cutting one of them, maybe the photo. (The other
        // order, file first, left exactly that after a pull in the rig's usb-pull scenario.)
        guard operations.fsync(directory) == 0 else {
            let failure = SystemError("fsync", directoryPath, errno: errno)
            if !replacing { _ = operations.unlinkat(directory, name, 0) }
            throw failure
        }
        let renamedFD = operations.openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        guard let renamedFD, operations.fsync(renamedFD) == 0 else {
            let failure = SystemError(renamedFD != nil ? "fsync" : "open", final, errno: errno)
            if let renamedFD { _ = operations.close(renamedFD) }
            if !replacing { _ = operations.unlinkat(directory, name, 0) }
            throw failure
        }
        _ = operations.close(renamedFD)
        return digest
    }

    /// Reads `name` in `directory` back from the device and checks its size and CRC-32 (what a failing or fake
    /// stick gets wrong; the SHA-256 is for what a person might forge, `digest(of:)`).
    public func verify(
        _ name: String, in directory: FileDescriptor, path: String, size: Int64, checksum: UInt32
    ) throws(SystemError) {
        let fd = try SystemError.check("open", path) {
            operations.openat(directory, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        }
        defer { _ = operations.close(fd) }
        // The pages were just written and fsynced, so they are clean: dropping them makes the read
        // below come from the stick, not from memory.
        _ = operations.dropCache(fd)
        let (readSize, readChecksum) = try Self.checksum(of: fd, path: path, operations: operations)
        guard readSize == size, readChecksum == checksum else { throw SystemError("verify", path, errno: EIO) }
    }

    /// The size and CRC-32 of everything readable from `fd`, read through `operations`.
    public static func checksum(
        of fd: FileDescriptor, path: String, operations: any FileOperations
    ) throws(SystemError) -> (Int64, UInt32) {
        var crc = CRC32()
        var size: Int64 = 0
        try DurableFile(operations: operations).stream(.file(descriptor: fd, path: path)) { chunk throws(SystemError) in
            crc.update(chunk)
            size += Int64(chunk.count)
        }
        return (size, crc.value)
    }

    /// The size, CRC-32 and SHA-256 of everything readable from `fd`, read through `operations`.
    public static func digest(
        of fd: FileDescriptor, path: String, operations: any FileOperations
    ) throws(SystemError) -> ContentDigest {
        try digest(of: .file(descriptor: fd, path: path), operations: operations)
    }

    /// Hands `contents` to `body` in order, a chunk (at most `chunkSize` bytes from a file) at a time.
    private func stream(
        _ contents: Contents, _ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void
    ) throws(SystemError) {
        let source: FileDescriptor
        let sourcePath: String
        switch contents {
        case .bytes(let bytes):
            try Self.withBytes(bytes[...], body)
            return
        case .file(let fd, let path):
            (source, sourcePath) = (fd, path)
        case .spliced(let head, let fd, let skip, let path):
            try Self.withBytes(head[...], body)
            guard operations.lseek(fd, off_t(skip), SEEK_SET) == skip else {
                throw SystemError("lseek", path, errno: errno)
            }
            (source, sourcePath) = (fd, path)
        }
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = try readSome(source, into: &buffer, path: sourcePath)
            if count == 0 { return }
            try Self.withBytes(buffer[..<count], body)
        }
    }

    /// `body` called with `bytes`' memory, its typed error passed on.
    private static func withBytes(
        _ bytes: ArraySlice<UInt8>, _ body: (UnsafeRawBufferPointer) throws(SystemError) -> Void
    ) throws(SystemError) {
        var failure: SystemError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemError) { try body(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// The copy buffer: 1 MiB, large enough for USB sticks' erase blocks to be written in whole.
    static let chunkSize = 1 << 20

    private func readSome(_ fd: FileDescriptor, into buffer: inout [UInt8], path: String) throws(SystemError) -> Int {
        try SystemError.check("read", path) { buffer.withUnsafeMutableBytes { operations.read(fd, $0) } }
    }

    /// fsyncs a directory, making renames and unlinks in it durable.
    public func syncDirectory(_ directory: String) throws(SystemError) {
        let fd = try operations.openFolder(directory)
        defer { _ = operations.close(fd) }
        guard operations.fsync(fd) == 0 else { throw SystemError("fsync", directory, errno: errno) }
    }
}
