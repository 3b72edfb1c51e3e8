// StickExporter+Lock: one export at a time per stick (its lock file), and the descriptors released at the end.
import BoothSystem
import Glibc

extension ExportRun {
    /// Waits for another export to this stick to finish, then holds the stick's lock until
    /// `closeAll` (flock: local, and FAT supports it).
    func lockStick() throws(ExportError) {
        let path = "\(exportPath)/\(StickExporter.lockName)"
        let folder = try exportFolder
        let lock = try check("open", path) {
            ops.openat(folder, StickExporter.lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        lockFD = lock
        try check("flock", path) { ops.flock(lock, LOCK_EX) }
    }

    func closeAll() {
        if let lockFD { _ = ops.close(lockFD) }
        lockFD = nil
        for fd in dateFDs.values { _ = ops.close(fd) }
        dateFDs = [:]
        if let exportFD { _ = ops.close(exportFD) }
        if let rootFD { _ = ops.close(rootFD) }
        (exportFD, rootFD) = (nil, nil)
    }
}
