// StickUnmounter: how a stick is unmounted once its export is flushed.
import BoothSystem
import CBoothSys
import Glibc

/// Unmounts a stick after its export (`ExportOptions.unmounter`).
public protocol StickUnmounter: Sendable {
    /// Unmounts the file system at `mountPoint`; nil when it is unmounted, else why not.
    func unmount(_ mountPoint: String) -> SystemError?
}

/// Unmounts with the kernel's umount2: needs CAP_SYS_ADMIN in the mount's namespace (root, as in
/// the simulator's tests and the rig's guest). The corresponding C function is `umount2`.
///
/// A mount still busy (EBUSY) is tried again for up to `busyWait`: something may hold it for a moment, e.g. a
/// process forked at that moment keeps a copy of the export's descriptors until its exec closes them. Blocking:
/// called on the export's worker thread.
public struct KernelUnmounter: StickUnmounter {
    /// How long a busy mount is tried again, in 50 ms steps.
    public let busyWait: Duration

    /// The kernel's unmount, a busy mount tried again for `busyWait` (1 s).
    public init(busyWait: Duration = .seconds(1)) { self.busyWait = busyWait }

    public func unmount(_ mountPoint: String) -> SystemError? {
        var waited: Duration = .zero
        while true {
            do throws(SystemError) {
                try SystemError.check("umount", mountPoint) { booth_umount(mountPoint, 0) }
                return nil
            } catch let error where error.code == .resourceBusy && waited < busyWait {
                ThreadSleep.pause(for: .milliseconds(50))
                waited += .milliseconds(50)
            } catch {
                return error
            }
        }
    }
}
