// StoreError: a file system failure of the photo store, a stick export or a sound import.
import Glibc

/// A file system failure of the store, an export or an import: the operation, the path and errno, with
/// what to do about it.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. "fsync".
    public var operation: String
    /// The file or folder.
    public var path: String
    /// errno after the call.
    public var errno: Int32
    /// What the other side said, with the fix, when it says more than errno (a D-Bus error).
    public var detail: String?

    /// A failure of `operation` on `path`.
    public init(_ operation: String, _ path: String, errno: Int32, detail: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        if let detail { return "\(operation) \(path): \(detail) (\(ErrnoText.name(errno)))" }
        var text = "\(operation) \(path): \(ErrnoText.describe(errno))"
        switch errno {
        case ENOSPC, EDQUOT: text += " — the disk is full: export and remove photos, or free space"
        case EROFS: text += " — the file system is read-only: check the card or stick (write-protect switch)"
        case EACCES, EPERM: text += " — permission denied: the booth's user must own the folder"
        case EIO: text += " — input/output error: the card or stick may be failing or was pulled out"
        default: break
        }
        return text
    }
}
