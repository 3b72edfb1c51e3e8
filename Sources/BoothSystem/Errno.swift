// Errno: swift-system's errno values, by name: what code outside this layer tells a failure's kind by.
import Glibc
import SystemPackage

/// An errno value (`Errno.noSuchFileOrDirectory`, `.permissionDenied`…), swift-system's type: the failures of this
/// layer (`SystemError.code`, `SystemBus.Failure.code`) and of the devices' wrappers carry one, so callers compare
/// kinds by name and need no C library.
public typealias Errno = SystemPackage.Errno

extension Errno {
    /// The errno the calling thread's last failed C call set: read by the wrapper of a C library other than libc
    /// (libgpiod, the camera's shim, libasound) right after the call that failed, as `SystemError.check` reads it after
    /// the file calls. Nowhere else outside BoothSystem is errno read (`scripts/check-system-calls`).
    public static var current: Errno { Errno(rawValue: Glibc.errno) }
}

extension Errno {
    /// Whether this answer to opening a device means it is not there: no node (ENOENT), or a node without its device
    /// (ENODEV, ENXIO), as for an unplugged sound card, camera, GPIO chip or remote. The booth's one list of them.
    public var meansDeviceMissing: Bool {
        self == .noSuchFileOrDirectory || self == .operationNotSupportedByDevice || self == .noSuchAddressOrDevice
    }

    /// Whether this answer to a call on an open device means the device went away while in use: ENODEV or ENXIO,
    /// EIO (a block device whose medium is gone), ESHUTDOWN or ENOTCONN (its USB link torn down), as a stick pulled
    /// out mid-copy answers. The booth's one list of them.
    public var meansDeviceGone: Bool {
        self == .operationNotSupportedByDevice || self == .noSuchAddressOrDevice || self == .ioError
            || self == .socketShutdown || self == .socketNotConnected
    }

    /// Whether this answer means the caller may not do it: EACCES (the file's or device's permissions) or EPERM (a
    /// privilege it lacks). The booth's one list of them.
    public var meansNotAllowed: Bool { self == .permissionDenied || self == .notPermitted }
}
