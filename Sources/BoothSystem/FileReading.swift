// FileReading: the one loop that reads a descriptor to its end.
import Glibc
import SystemPackage

/// The one loop that reads a descriptor to its end (a config, a state file, mountinfo, a manifest, a
/// WAV, standard input): chunks of 64 KiB, EINTR retried, a size limit so a hostile or runaway file
/// cannot take the memory. Callers open and close; `read` is the C library's or a fault seam's.
public enum FileReading {
    /// Why reading stopped.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `open` failed with this errno (not ENOENT: a missing file is no failure of `contents`).
        case open(errno: Int32)
        /// `read` failed with this errno.
        case read(errno: Int32)
        /// There was more than `limit` bytes.
        case tooLarge(limit: Int)

        public var description: String {
            switch self {
            case .open(let code), .read(let code): ErrnoText.describe(code)
            case .tooLarge(let limit): "larger than \(Self.size(limit))"
            }
        }

        /// This failure as the `SystemError` of reading `path`: the errno of the `open` or `read` that failed, or
        /// EFBIG with the limit for a file too large.
        public func systemError(reading path: String) -> SystemError {
            switch self {
            case .open(let code): SystemError("open", path, errno: code)
            case .read(let code): SystemError("read", path, errno: code)
            case .tooLarge: SystemError("read", path, errno: EFBIG, detail: description)
            }
        }

        private static func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        }
    }

    /// Everything readable from `fd` until its end, at most `limit` bytes.
    public static func readAll(
        _ fd: FileDescriptor, limit: Int,
        read: (FileDescriptor, UnsafeMutableRawBufferPointer) -> Int = { SystemFileOperations().read($0, $1) }
    ) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        try forEachChunk(fd, read: read) { chunk throws(Failure) in
            guard bytes.count + chunk.count <= limit else { throw .tooLarge(limit: limit) }
            bytes += chunk
        }
        return bytes
    }

    /// The whole file at `path`, at most `limit` bytes; nil when there is no such file. `followingLinks: false`
    /// refuses a link at `path` (ELOOP), as the gallery reads a photo.
    public static func contents(of path: String, limit: Int, followingLinks: Bool = true) throws(Failure) -> [UInt8]? {
        guard let fd = try open(path, flags: followingLinks ? 0 : O_NOFOLLOW) else { return nil }
        defer { _ = SystemFileOperations().close(fd) }
        return try readAll(fd, limit: limit)
    }

    /// The text of the file at `path` (UTF-8, at most `limit` bytes; "" when there is no file), a failure told as
    /// reading `path`: what a file of lines the booth keeps (the print count, the prints waiting) is read with.
    public static func text(of path: String, limit: Int) throws(SystemError) -> String {
        do {
            return String(decoding: try contents(of: path, limit: limit) ?? [], as: UTF8.self)
        } catch {
            throw error.systemError(reading: path)
        }
    }

    /// Hands the file at `path` to `body` in order, a chunk of at most 64 KiB at a time, to its end: a file too
    /// large to hold whole (an events log). False when there is no such file.
    public static func forEachChunk(of path: String, _ body: (ArraySlice<UInt8>) -> Void) throws(Failure) -> Bool {
        guard let fd = try open(path) else { return false }
        defer { _ = SystemFileOperations().close(fd) }
        try forEachChunk(fd, read: { SystemFileOperations().read($0, $1) }, body)
        return true
    }

    /// The names in the folder at `path` (without "." and ".."); nil when there is no such folder.
    public static func names(in path: String) throws(Failure) -> [String]? {
        guard let fd = try open(path, flags: O_DIRECTORY) else { return nil }
        defer { _ = SystemFileOperations().close(fd) }
        guard let names = SystemFileOperations().names(in: fd) else { throw .read(errno: errno) }
        return names
    }

    /// `path` opened for reading; nil when there is no such file.
    private static func open(_ path: String, flags: Int32 = 0) throws(Failure) -> FileDescriptor? {
        while true {
            if let fd = SystemFileOperations().open(path, O_RDONLY | O_CLOEXEC | flags, 0) { return fd }
            if errno == EINTR { continue }
            if errno == ENOENT { return nil }
            throw .open(errno: errno)
        }
    }

    /// Reads `fd` to its end in chunks of 64 KiB through `read`, handing each to `body`.
    private static func forEachChunk(
        _ fd: FileDescriptor, read: (FileDescriptor, UnsafeMutableRawBufferPointer) -> Int,
        _ body: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in SystemError.retryingInterrupts { read(fd, buffer) } }
            if count < 0 { throw .read(errno: errno) }
            if count == 0 { return }
            try body(chunk[..<count])
        }
    }
}
