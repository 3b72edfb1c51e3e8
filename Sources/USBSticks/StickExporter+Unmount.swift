// StickExporter+Unmount: an export's end (manifest, flush, copies read back and recorded, unmount), also after failure.
import BoothCore
import BoothSystem
import Glibc

extension ExportRun {
    /// Writes the manifest, flushes, reads this run's copies back and records them, and unmounts.
    func finish(_ summary: inout ExportSummary) throws(ExportError) {
        if unrecorded > 0 { try recordNow() }
        let root = try root
        try check("syncfs", mountPoint) { ops.syncfs(root) }
        try verifyCopiesAndRecord()
        closeAll()
        guard options.unmount else { return }
        summary.unmountError = options.unmounter.unmount(mountPoint)
        summary.unmounted = summary.unmountError == nil
    }

    /// After a failure: while the stick is there, writes the manifest, flushes, records the copies that
    /// read back right (a full stick keeps what it got) and unmounts when asked to; returns whether
    /// the stick was unmounted. A pulled stick records nothing: the next insert reads the manifest's
    /// claims back and records them. So does a `stopped` export: a stop must end within the unit's stop
    /// timeout, and reading back everything copied (hundreds of photos late in a large export) would
    /// not, so it only writes the manifest, flushes and unmounts (each copy was already read back once,
    /// before its rename). A mount refused for its file system was never the booth's to touch: it is left
    /// mounted.
    func abandon(stickRemoved: Bool, refused: Bool, stopped: Bool) -> Bool {
        guard !stickRemoved, !refused, let rootFD else { return false }
        if exportFD != nil, unrecorded > 0 { try? recordNow() }
        if ops.syncfs(rootFD) == 0, exportFD != nil, !stopped { try? verifyCopiesAndRecord() }
        guard options.unmount else { return false }
        closeAll()
        return options.unmounter.unmount(mountPoint) == nil
    }

    /// Reads every copy of this run back from the stick (after the flush, past the page cache) and, if
    /// all are right (size and CRC-32), records them and the verified claims in the booth's index, which is what lets
    /// `cleanup_exported` delete a photo. A copy that reads back wrong records nothing: verification
    /// failed (a fake-capacity stick wraps around and overwrites earlier files with later ones). A stop between
    /// two read-backs records the copies read back so far (each was read after every write had been flushed, so
    /// no later file can have overwritten it) and ends the export as `stopped`.
    private func verifyCopiesAndRecord() throws(ExportError) {
        var readBack: [(name: String, checksum: UInt32)] = []
        var stopped = false
        for copy in copies {
            stopped = shouldStop()
            if stopped { break }
            let parts = copy.path.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let folder = try dateDirectory(parts[0])
            do {
                try copier.verify(copy, name: parts[1], in: folder, exportPath: exportPath)
            } catch {
                throw ExportError(.failed(error), done: done, total: total)
            }
            // Layouts and companions (RAWs) are no photos of the index: the manifest alone records them, so they never
            // let cleanup delete anything.
            if ExportPlan.isPhotoSource(copy.source) {
                readBack.append((copy.source, sourceChecksums[copy.source] ?? copy.checksum))
            }
        }
        // The index only lets cleanup delete exported photos: if it cannot be written, the booth
        // just keeps them longer. Copies a stop left unread are the manifest's claims at the next insert.
        try? store.markExported(claims + readBack, to: manifest.stickID)
        (claims, copies) = ([], [])
        if stopped { throw ExportError(.stopped, done: done, total: total) }
    }
}
