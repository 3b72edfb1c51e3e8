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
