// StickUnmounter: how a stick is unmounted once its export is flushed.
import BoothSystem
import CBoothSys
import Glibc

/// Unmounts a stick after its export (`ExportOptions.unmounter`).
public protocol StickUnmounter: Sendable {
    /// Unmounts the file system at `mountPoint`; nil when it is unmounted, else why not.
    func unmount(_ mountPoint: String) -> StoreError?
}

/// Unmounts with the kernel's umount2: needs CAP_SYS_ADMIN in the mount's namespace (root, as in
/// the simulator's tests and the rig's guest). The corresponding C function is `umount2`.
public struct KernelUnmounter: StickUnmounter {
    /// The kernel's unmount.
    public init() {}

    public func unmount(_ mountPoint: String) -> StoreError? {
        booth_umount(mountPoint, 0) == 0 ? nil : StoreError("umount", mountPoint, errno: errno)
    }
}
