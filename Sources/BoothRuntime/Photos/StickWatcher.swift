// StickWatcher: sticks mounted and unmounted below the media root, seen from the event loop.
import BoothCore
import BoothSystem

/// Watches /proc/self/mountinfo from the event loop: the kernel flags it (EPOLLPRI | EPOLLERR) on
/// every mount and unmount; each time the file is read again from offset 0 and compared with the last
/// reading. Reports each file system mounted below the media root (a stick) and each that went away.
/// Mounting itself is the system's job (deploy/udev/99-heylook-usb.rules, or by hand).
final class StickWatcher {
    /// What changed, on the loop thread.
    typealias Report = (StickChange) -> Void

    private var tracker: StickTracker
    private let table: KernelTable

    /// A watcher of mounts below `mediaRoot`; `mountInfo` is the table read. It watches once `watch` says where.
    init(mediaRoot: String, mountInfo: String = "/proc/self/mountinfo") throws(SystemError) {
        tracker = StickTracker(root: mediaRoot)
        table = try KernelTable(path: mountInfo)
    }

    /// Watches on `loop`, reporting each change to `report`. Sticks already mounted are reported as inserted at the
    /// loop's first turn.
    func watch(on loop: EventLoop, report: @escaping Report) throws(SystemError) {
        try loop.register(exceptional: table.fileDescriptor) { [unowned self] in
            for change in self.reread() { report(change) }
        }
        loop.schedule(at: loop.now()) { [weak self] in
            for change in self?.reread() ?? [] { report(change) }
        }
    }

    private func reread() -> [StickChange] {
        // On a failed read the last reading stands; the next change reads again.
        guard let bytes = try? table.read(limit: 16 << 20) else { return [] }
        return tracker.mountsChanged(MountTable.parse(String(decoding: bytes, as: UTF8.self)))
    }
}
