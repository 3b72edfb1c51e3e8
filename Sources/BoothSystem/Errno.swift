// Errno: swift-system's errno values, by name: what code outside this layer tells a failure's kind by.
import SystemPackage

/// An errno value (`Errno.noSuchFileOrDirectory`, `.permissionDenied`…), swift-system's type: the failures of this
/// layer (`SystemError.code`, `SystemBus.Failure.code`) and of the devices' wrappers carry one, so callers compare
/// kinds by name and need no C library.
public typealias Errno = SystemPackage.Errno
