// ErrnoCode: the errno values callers outside this module tell apart, by name.
import Glibc

/// The errno values code outside BoothSystem compares a failure's code with (`SystemError.errno`,
/// `SystemBus.Failure.code`), named as swift-system names them, so those callers need no C library.
public enum ErrnoCode {
    /// ENOENT: no such file or folder (on the system bus: no such unit).
    public static let noSuchFileOrDirectory: Int32 = ENOENT
    /// ENOTDIR: a file where a folder was asked for.
    public static let notDirectory: Int32 = ENOTDIR
    /// ELOOP: a symbolic link where O_NOFOLLOW refuses one.
    public static let tooManySymbolicLinkLevels: Int32 = ELOOP
    /// ENXIO: no such device or address (on the system bus: nobody owns the service).
    public static let noSuchAddressOrDevice: Int32 = ENXIO
    /// EACCES: permission denied (on the system bus: polkit or the bus's policy refused).
    public static let permissionDenied: Int32 = EACCES
    /// ESTALE: a stale handle (libcamera holding a camera that vanished unseen).
    public static let staleFileHandle: Int32 = ESTALE
    /// ENODEV: no such device (an input device unplugged while open).
    public static let noSuchDevice: Int32 = ENODEV
    /// EBUSY: the resource is busy (an input device another program took for itself).
    public static let resourceBusy: Int32 = EBUSY
    /// ENOTTY: the ioctl is not one the file knows (not an input device's node).
    public static let inappropriateIOCTLForDevice: Int32 = ENOTTY
    /// EINVAL: an invalid argument.
    public static let invalidArgument: Int32 = EINVAL
}
