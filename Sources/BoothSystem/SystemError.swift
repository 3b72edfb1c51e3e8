// SystemError: a file system failure of the photo store, a stick export or a sound import.
import Glibc

/// A file system failure of the store, an export or an import: the operation, the path and errno, with
/// what to do about it.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. "fsync".
    public var operation: String
    /// The file or folder.
    public var path: String
    /// errno after the call.
    public var errno: Int32
    /// What the other side said when it says more than errno (a D-Bus error, the step that failed).
    public var detail: String?
    /// What to do about it, when the caller knows better than errno alone.
    public var fix: String?

    /// A failure of `operation` on `path`.
    public init(_ operation: String, _ path: String, errno: Int32, detail: String? = nil, fix: String? = nil) {
        self.operation = operation
        self.path = path
        self.errno = errno
        self.detail = detail
        self.fix = fix
    }

    /// "op path: [detail: ]Text (ENAME)[ — fix]": errno named by `ErrnoText`, the fix the caller's or errno's.
    public var description: String {
        var text = "\(operation) \(path): "
        if let detail { text += "\(detail): " }
        text += ErrnoText.describe(errno)
        if let fix = fix ?? Self.fix(for: errno) { text += " — \(fix)" }
        return text
    }

    /// What to do about a file system errno, where there is something to say.
    private static func fix(for code: Int32) -> String? {
        switch code {
        case ENOSPC, EDQUOT: "the disk is full: export and remove photos, or free space"
        case EROFS: "the file system is read-only: check the card or stick (write-protect switch)"
        case EACCES, EPERM: "permission denied: the booth's user must own the folder"
        case EIO: "input/output error: the card or stick may be failing or was pulled out"
        default: nil
        }
    }
}
