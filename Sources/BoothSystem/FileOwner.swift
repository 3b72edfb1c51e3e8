// FileOwner: who owns a file: its user id (stat, lstat) and that user's name (getpwuid).
import Glibc

/// Who owns a file, as `booth doctor` reports it: a store file owned by another user than its folder is one the
/// booth cannot write.
public enum FileOwner {
    /// The user id that owns `path`; with `followingLinks` false, a symbolic link's own. The corresponding C
    /// functions are `stat` and `lstat`.
    public static func userID(of path: String, followingLinks: Bool = true) throws(SystemError) -> UInt32 {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw SystemError(followingLinks ? "stat" : "lstat", path, errno: errno) }
        return info.st_uid
    }

    /// The name of the user `uid` in the password database, or nil when it has none. The corresponding C function
    /// is `getpwuid`.
    public static func userName(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }
}
