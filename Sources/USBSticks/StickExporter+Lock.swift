// StickExporter+Lock: one export at a time per stick (its lock file), and the descriptors released at the end.
import BoothSystem
import Glibc

extension ExportRun {
    /// Waits for another export to this stick to finish, then holds the stick's lock until
    /// `closeAll` (flock: local, and FAT supports it).
    func lockStick() throws(ExportError) {
        let path = "\(exportPath)/\(StickExporter.lockName)"
        lockFD = try check("open", path) {
            ops.openat(exportFD, StickExporter.lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        try check("flock", path) { ops.flock(lockFD, LOCK_EX) }
    }

    func closeAll() {
        if lockFD >= 0 { _ = ops.close(lockFD) }
        lockFD = -1
        for fd in dateFDs.values { _ = ops.close(fd) }
        dateFDs = [:]
        if exportFD >= 0 { _ = ops.close(exportFD) }
        if rootFD >= 0 { _ = ops.close(rootFD) }
        (exportFD, rootFD) = (-1, -1)
    }
}
