// FileReading: the one loop that reads a descriptor to its end.
import Glibc

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

        private static func size(_ bytes: Int) -> String {
            bytes >= 1 << 20 && bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
        }
    }

    /// Everything readable from `fd` until its end, at most `limit` bytes.
    public static func readAll(
        _ fd: Int32, limit: Int,
        read: (Int32, UnsafeMutableRawBufferPointer) -> Int = { Glibc.read($0, $1.baseAddress, $1.count) }
    ) throws(Failure) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = SystemError.retryingInterrupts { chunk.withUnsafeMutableBytes { read(fd, $0) } }
            if count < 0 { throw .read(errno: errno) }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(limit: limit) }
            bytes += chunk[..<count]
        }
    }

    /// The whole file at `path`, at most `limit` bytes; nil when there is no such file.
    public static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw .open(errno: errno)
        }
        defer { close(fd) }
        return try readAll(fd, limit: limit)
    }
}
