// FileIdentity: which file a descriptor is open on, as its device and inode.
import Glibc

/// Which file a descriptor is open on: its device and inode (what systemd's `JOURNAL_STREAM` names the journal's
/// stream by).
public struct FileIdentity: Hashable, Sendable {
    /// The device the file is on (`st_dev`).
    public var device: UInt64
    /// The file's inode on that device (`st_ino`).
    public var inode: UInt64

    /// The file `device` and `inode` name.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The file `fd` is open on; nil when that cannot be read (a closed descriptor).
    /// The corresponding C function is `fstat`.
    public init?(descriptor fd: FileDescriptor) {
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
