// SystemdUnmounter: a stick unmounted by systemd (StopUnit on its mount unit), umount2 where there is no systemd.
import BoothCore
import BoothSystem
import PhotoStore
import USBSticks

/// Unmounts a stick by stopping its mount unit (`media-heylook-<uuid>.mount`) through systemd's D-Bus
/// API, so the booth needs no capability and its sandbox no say over the host's mounts: polkit allows
/// the booth's user exactly that verb on exactly those units (deploy/polkit/50-heylook-booth.rules).
/// Where there is no system bus or no systemd on it (the simulator in a container, the rig's busybox
/// guest, where the booth runs as root), or systemd knows no such unit, it falls back to umount2.
/// Blocking (it waits for the job's end): called on the export worker's thread.
package struct SystemdUnmounter: StickUnmounter {
    /// How long systemd's job may take (it flushes the stick again and unmounts it).
    var timeout: Duration
    /// The unmount used where systemd cannot do it.
    var fallback: any StickUnmounter

    /// An unmounter asking systemd to stop the mount unit within `timeoutMicroseconds`, else using `fallback`.
    package init(timeout: Duration = .seconds(30), fallback: any StickUnmounter = KernelUnmounter()) {
        self.timeout = timeout
        self.fallback = fallback
    }

    package func unmount(_ mountPoint: String) -> SystemError? {
        guard let bus = try? SystemBus() else { return fallback.unmount(mountPoint) }
        let unit = MountUnitName.forMountPoint(mountPoint)
        let code: Errno
        let detail: String
        do {
            try bus.stopUnit(unit, timeout: timeout)
            return nil
        } catch {
            (code, detail) = (error.code, error.detail)
        }
        if code == .noSuchFileOrDirectory || code == .noSuchAddressOrDevice {
            return fallback.unmount(mountPoint)
        }
        let fix =
            code == .permissionDenied
            ? "the booth's user may stop media-heylook-*.mount units only through the polkit rule"
                + " /usr/share/polkit-1/rules.d/50-heylook-booth.rules (installed by the heylook-booth package)"
            : nil
        return SystemError(
            "stop \(unit)", mountPoint, errno: code.rawValue, detail: detail.isEmpty ? nil : detail, fix: fix)
    }
}
