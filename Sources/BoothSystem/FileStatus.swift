// FileStatus: what is at a path (no link followed): its kind, size, modification time and identity.
import Glibc

/// What is at a path, as `lstat` says without following a link: whether it is a regular file, a folder or a link,
/// its size, when its data last changed and which file it is (what the gallery checks before serving a photo).
public struct FileStatus: Sendable, Equatable {
    /// What kind of thing is at the path.
    public enum Kind: Sendable, Equatable {
        case regularFile, directory, symbolicLink, other
    }

    /// Its kind (a link is a link: it is not followed).
    public var kind: Kind
    /// Its size in bytes.
    public var size: Int64
    /// When its data last changed, in seconds since the epoch (`st_mtim`).
    public var modifiedSeconds: Int64
    /// Which file it is: its device and inode.
    public var identity: FileIdentity

    /// Whether it is a regular file (not a link, a folder or a device).
    public var isRegularFile: Bool { kind == .regularFile }

    /// What is at `path`; nil when nothing is there or it cannot be looked at (errno says why).
    /// The corresponding C function is `lstat`.
    public init?(path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        size = Int64(info.st_size)
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
