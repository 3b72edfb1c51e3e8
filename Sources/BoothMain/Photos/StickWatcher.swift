// StickWatcher: sticks mounted and unmounted below the media root, seen from the event loop.
import BoothCore
import BoothSystem
import CBoothSys
import Glibc

/// Watches /proc/self/mountinfo from the event loop: the kernel flags it (EPOLLPRI | EPOLLERR) on
/// every mount and unmount; each time the file is read again from offset 0 and compared with the last
/// reading. Reports each file system mounted below the media root (a stick) and each that went away.
/// Mounting itself is the system's job (deploy/udev/99-heylook-usb.rules, or by hand).
final class StickWatcher {
    /// What changed, on the loop thread.
    typealias Report = (StickChange) -> Void

    private let path: String
    private var tracker: StickTracker
    private var fd: Int32 = -1

    /// A watcher of mounts below `mediaRoot`; `mountInfo` is the table read.
    init(mediaRoot: String, mountInfo: String = "/proc/self/mountinfo") {
        path = mountInfo
        tracker = StickTracker(root: mediaRoot)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Starts watching; sticks already mounted are reported as inserted right away.
    func attach(to loop: EventLoop, report: @escaping Report) throws(SystemError) {
        fd = try SystemError.check("open", path) { open(path, O_RDONLY | O_CLOEXEC) }
        try loop.register(exceptional: fd) { [unowned self] in
            for change in self.reread() { report(change) }
        }
        for change in reread() { report(change) }
    }

    private func reread() -> [StickChange] {
        // On a failed read the last reading stands; the next change reads again.
        guard lseek(fd, 0, SEEK_SET) == 0, let bytes = try? FileReading.readAll(fd, limit: 16 << 20) else { return [] }
        return tracker.mountsChanged(MountTable.parse(String(decoding: bytes, as: UTF8.self)))
    }
}
