// StickAdmission: the one gate every use of a stick passes first (its root, device and file system), photos and sounds.
import BoothSystem
import Glibc

/// Whether the booth may use what is mounted at a mount point: its root a folder and not a link, the file system
/// mountinfo showed there, and one of the accepted types. A stick export and a sound import both start here.
public enum StickAdmission {
    /// A stick let in: its root folder (the caller closes it) and its file system's type.
    public struct Admitted {
        public var root: FileDescriptor
        public var fileSystem: String
    }

    /// Lets in the stick mounted at `mountPoint`, whose device number mountinfo showed as `device` ("major:minor";
    /// nil for a folder given by hand, not checked), when its file system is one of `allowed`; or refuses it, having
    /// closed whatever it opened, with why (`refusedLink`, `mountChanged`, `unsupportedFileSystem`, or the failed
    /// call).
    public static func admit(
        _ mountPoint: String, device: String?, allowing allowed: Set<String>, operations ops: any FileOperations
    ) throws(ExportError) -> Admitted {
        let root = try openRoot(mountPoint, operations: ops)
        do throws(ExportError) {
            try checkDevice(of: root, at: mountPoint, expected: device, operations: ops)
            let type = try checkFileSystem(of: root, at: mountPoint, allowing: allowed, operations: ops)
            return Admitted(root: root, fileSystem: type)
        } catch {
            _ = ops.close(root)
            throw error
        }
    }

    /// The stick's root folder, opened without following a link (a link is refused). The caller closes it.
    private static func openRoot(
        _ mountPoint: String, operations ops: any FileOperations
    ) throws(ExportError) -> FileDescriptor {
        do throws(SystemError) {
            return try SystemError.check("open", mountPoint) {
                ops.open(mountPoint, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            }
        } catch let error where error.code == .tooManySymbolicLinkLevels {
            throw ExportError(.refusedLink(mountPoint), done: 0, total: 0)
        } catch {
            throw ExportError(.failed(error), done: 0, total: 0)
        }
    }

    /// Checks that the folder `root` is the root of the file system mountinfo showed at `mountPoint`: its device
    /// number (st_dev) is `expected` ("major:minor"). A mount made over the stick's, or a folder left where the
    /// stick was, has another: refused before anything is read there. No `expected` (a folder by hand): no check.
    private static func checkDevice(
        of root: FileDescriptor, at mountPoint: String, expected: String?, operations ops: any FileOperations
    ) throws(ExportError) {
        guard let expected else { return }
        var info = stat()
        do throws(SystemError) {
            try SystemError.check("stat", mountPoint) { ops.fstat(root, &info) }
        } catch {
            throw ExportError(.failed(error), done: 0, total: 0)
        }
        let found = deviceName(info.st_dev)
        guard found == expected else {
            let changed = ExportError.Reason.mountChanged(mountPoint: mountPoint, expected: expected, found: found)
            throw ExportError(changed, done: 0, total: 0)
        }
    }

    /// A device number as mountinfo writes it: "major:minor" (glibc's `major()` and `minor()`, macros Swift does
    /// not import).
    public static func deviceName(_ device: dev_t) -> String {
        let d = UInt64(device)
        return "\(((d >> 8) & 0xfff) | ((d >> 32) & 0xffff_f000)):\((d & 0xff) | ((d >> 12) & 0xffff_ff00))"
    }

    /// The file system type of the stick whose root is `root`, once checked to be one of `allowed`.
    private static func checkFileSystem(
        of root: FileDescriptor, at mountPoint: String, allowing allowed: Set<String>,
        operations ops: any FileOperations
    ) throws(ExportError) -> String {
        // A file system whose type cannot even be read is failing: that error, not "unsupported".
        let type: String
        do throws(SystemError) {
            type = try SystemError.checkValue("statfs", mountPoint) { fileSystemType(of: root, operations: ops) }
        } catch {
            throw ExportError(.failed(error), done: 0, total: 0)
        }
        guard allowed.contains(type) else { throw ExportError(.unsupportedFileSystem(type), done: 0, total: 0) }
        return type
    }

    /// The file system type (`fileSystemType(of:)`) of the folder at `path`, a link to one followed: what a folder
    /// given by hand is told by.
    public static func fileSystemType(
        at path: String, operations: any FileOperations = SystemFileOperations()
    ) throws(SystemError) -> String {
        let fd = try operations.openFolder(path)
        defer { _ = operations.close(fd) }
        return try SystemError.checkValue("statfs", path) { fileSystemType(of: fd, operations: operations) }
    }

    /// The name /proc/mounts uses for the file system type holding `fd` ("vfat", "exfat" ...); nil, with
    /// errno set, when it cannot be read.
    public static func fileSystemType(
        of fd: FileDescriptor, operations: any FileOperations = SystemFileOperations()
    ) -> String? {
        var magic = 0
        guard operations.fileSystemType(fd, &magic) == 0 else { return nil }
        let names: [Int: String] = [
            0x4d44: "vfat", 0x2011_BAB0: "exfat", 0xEF53: "ext4", 0x0102_1994: "tmpfs", 0x9123_683E: "btrfs",
            0x5846_5342: "xfs", 0x794C_7630: "overlay", 0x5346_544E: "ntfs", 0x6573_5546: "fuseblk",
            0xF2F5_2010: "f2fs",
        ]
        return names[magic] ?? "unknown (0x\(String(magic, radix: 16)))"
    }
}
