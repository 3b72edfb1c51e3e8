// CacheFile: a file that can always be made again, replaced whole by a rename and removed, without fsync.
import Glibc

/// A file the booth can always make again (a gallery thumbnail): written under a temporary name beside it and
/// renamed over it, so a reader never sees half of one, but not made durable (no fsync: a power cut costs only the
/// making again). A link where the file or the temporary name goes is never followed.
public enum CacheFile {
    /// Writes `bytes` as the file at `path`, replacing one that is there: `.NAME.partial` beside it, then a rename.
    /// Nothing is left under the temporary name when it fails.
    public static func write(_ bytes: [UInt8], to path: String) throws(SystemError) {
        let file = FilePath(path)
        let temporary = "\(file.folder)/.\(file.name).partial"
        let operations = SystemFileOperations()
        let fd = try SystemError.check("open", temporary) {
            operations.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        }
        var failure: SystemError?
        do throws(SystemError) {
            try operations.writeAll(bytes, to: fd, path: temporary)
        } catch {
            failure = error
        }
        if operations.close(fd) != 0, failure == nil { failure = SystemError("close", temporary, errno: Glibc.errno) }
        if failure == nil, operations.rename(temporary, path) != 0 {
            failure = SystemError("rename", path, errno: Glibc.errno)
        }
        if let failure {
            _ = operations.unlink(temporary)
            throw failure
        }
    }

    /// Removes the file at `path`; false when it could not (nothing there, or errno says why).
    /// The corresponding C function is `unlink`.
    @discardableResult
    public static func remove(_ path: String) -> Bool {
        SystemFileOperations().unlink(path) == 0
    }
}
