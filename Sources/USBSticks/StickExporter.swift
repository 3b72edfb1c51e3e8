// StickExporter: copies the booth's kept photos to a USB stick, verified, resumable, never following links.
import BoothCore
import BoothSystem
import CBoothSys
import Checksum
import Glibc
import PhotoEncoding
import PhotoModel
import PhotoStore

/// Copies every kept photo not yet on a stick into `<stick>/<folder>/YYYY-MM-DD/` (and every print layout kept in the
/// store into `<stick>/<folder>/layouts/`, and with `options.raw` each photo's companions (its RAW) beside it, these
/// two recorded in the manifest alone), records it in the
/// stick's manifest (`<folder>/manifest.txt`, per booth, with sizes, CRC-32s and SHA-256s) and in the store's
/// index, then flushes the stick (syncfs) and unmounts it.
///
/// Each file goes temp name → reserve its clusters (fsync) → write → fsync → read back from the device
/// and compare (size, CRC-32) → rename (never replacing) → fsync its folder, then the file, so a
/// final name only ever holds a complete, verified photo, also on FAT after a pull (checked in
/// Tests/Rig/scenarios/usb-pull.sh). Every name on the stick is opened relative to a folder descriptor
/// with O_NOFOLLOW: a symbolic link there is refused, never followed, and nothing is written outside the
/// export folder. The booth's store is only read (its index records the exports). Blocking: run it on a
/// worker thread.
public struct StickExporter: Sendable {
    /// The photos to export.
    public let store: PhotoStore
    /// Folder, accepted file systems, unmounting, the calls used.
    public let options: ExportOptions

    /// The manifest's file name in the export folder.
    public static let manifestName = "manifest.txt"
    /// The lock file in the export folder: one export at a time per stick (the booth and
    /// `booth export`), so neither removes the other's temp files nor writes a manifest without the
    /// other's entries.
    public static let lockName = ".heylook-export.lock"

    /// An exporter of `store`'s kept photos.
    public init(store: PhotoStore, options: ExportOptions = ExportOptions()) {
        self.store = store
        self.options = options
    }

    /// Exports to the stick mounted at `mountPoint` (or a plain folder, with `options.unmount` off). `device` is
    /// the stick's device number as mountinfo showed it at that point ("major:minor"): the file system found
    /// there must be that one (`checkDevice`), or nothing is touched. `progress(done, total)` is called on this
    /// thread after the plan and after each photo. When `shouldStop()` turns true, the export ends before the
    /// next file it would read or copy (a claim of the manifest read back, a photo copied, a copy read back at
    /// the end) as after a failure (`ExportError.Reason.stopped`): what was copied is in the manifest, flushed and
    /// unmounted, and what was not yet read back is read back at the next insert. So a stop never waits for
    /// more than one file, however many the stick holds and however slow it is.
    ///
    /// With `options.owners` (`export.sticks = "owner"`) only a stick whose manifest carries an owner's id gets
    /// photos; any other is refused (`unknownStick`) before anything is written there, and left mounted. `claim`
    /// makes the stick the owner's first: its manifest (a new one gets a new id) is written to it, then its id is
    /// recorded as the owner's, then it is exported as usual. `started` is called once the stick is accepted: its
    /// mount, file system and owner checked, before anything is read or written there; for a claim, once its id
    /// is on it and recorded as the owner's, before any photo is read or written there.
    public func export(
        to mountPoint: String, device: String? = nil, claim: Bool = false,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }, started: () -> Void = {},
        shouldStop: @escaping () -> Bool = { false }
    ) throws(ExportError)
        -> ExportSummary
    {
        let run = ExportRun(
            store: store, options: options, mountPoint: mountPoint, device: device, claim: claim,
            shouldStop: shouldStop)
        defer { run.closeAll() }
        do throws(ExportError) {
            var summary = try run.copyAll(started: started, progress: progress)
            try run.finish(&summary)
            return summary
        } catch {
            var error = error
            error.unmounted = run.abandon(
                stickRemoved: error.stickRemoved, refused: error.isRefusedFileSystem || error.isUnknownStick,
                stopped: error.isStopped)
            throw error
        }
    }
}

/// One export's open descriptors and progress.
final class ExportRun {
    let store: PhotoStore
    let options: ExportOptions
    let mountPoint: String
    /// The stick's device number as mountinfo showed it (nil: a folder by hand, not checked).
    let device: String?
    let ops: any FileOperations
    let file: DurableFile
    /// What copies a planned file onto the stick and reads it back.
    let copier: StickCopier
    /// The manifest's file in the export folder.
    let manifestFile: StickManifestFile
    /// The stick's root folder, open once the stick is admitted.
    var rootFD: FileDescriptor?
    /// The export folder on the stick, open once made or found.
    var exportFD: FileDescriptor?
    /// The stick's lock file, open while the export holds the lock.
    var lockFD: FileDescriptor?
    /// The date folders opened so far, by name.
    var dateFDs: [String: FileDescriptor] = [:]
    var manifest = ExportManifest(stickID: PhotoStore.randomID())
    /// This run's copies, not yet recorded in the booth's index: only a read-back after the final
    /// flush records them (a fake-capacity stick overwrites earlier files with later ones).
    var copies: [ExportManifest.Entry] = []
    /// The manifest's claims this run read back and found right, recorded with the copies.
    var claims: [(name: String, checksum: UInt32)] = []
    /// The photos saved undated and dated since whose copies carry their date, by source name.
    var redatings: [String: DatedCopy] = [:]
    /// The photo's own CRC-32 (what the index records) for a copy whose bytes are not the photo's (a dated copy),
    /// read from the photo when it was copied or its copy adopted; by source name.
    var sourceChecksums: [String: UInt32] = [:]
    var unrecorded = 0
    var done = 0
    var total = 0
    /// Asked before each file read or copied: true ends the export (`stopped`).
    let shouldStop: () -> Bool
    /// Whether the stick is made the owner's before it is exported to.
    let claim: Bool

    var exportPath: String { "\(mountPoint)/\(options.folder)" }

    init(
        store: PhotoStore, options: ExportOptions, mountPoint: String, device: String?, claim: Bool,
        shouldStop: @escaping () -> Bool
    ) {
        self.store = store
        self.claim = claim
        self.device = device
        self.shouldStop = shouldStop
        self.options = options
        self.mountPoint = mountPoint.count > 1 && mountPoint.hasSuffix("/") ? String(mountPoint.dropLast()) : mountPoint
        ops = options.operations
        file = DurableFile(operations: options.operations)
        copier = StickCopier(operations: options.operations)
        manifestFile = StickManifestFile(operations: options.operations)
    }

    /// The export's failure `error`, with its progress.
    func fail(_ error: SystemError) -> ExportError {
        ExportError(.failed(error), done: done, total: total)
    }

    /// `body`'s result, or its failure as the export's.
    func failing<Result>(_ body: () throws(SystemError) -> Result) throws(ExportError) -> Result {
        do throws(SystemError) { return try body() } catch { throw fail(error) }
    }

    /// The export's failure of `operation` on `path` with `code` (one the export decides: EINVAL, EROFS, ENOSPC ...).
    func fail(_ operation: String, _ path: String, _ code: Int32) -> ExportError {
        fail(SystemError(operation, path, errno: code))
    }

    /// `call`'s result (a `FileOperations` call answering -1 and errno on failure, EINTR retried), or the export's
    /// failure of `operation` on `path` with that errno.
    @discardableResult
    func check<Result: FixedWidthInteger & SignedInteger>(
        _ operation: String, _ path: @autoclosure () -> String, _ call: () -> Result
    ) throws(ExportError) -> Result {
        do throws(SystemError) { return try SystemError.check(operation, path(), call) } catch { throw fail(error) }
    }

    /// `call`'s descriptor (a `FileOperations` call that opens, EINTR retried), or the export's failure of `operation`
    /// on `path` with the call's errno.
    func check(
        _ operation: String, _ path: @autoclosure () -> String, _ call: () -> FileDescriptor?
    ) throws(ExportError) -> FileDescriptor {
        do throws(SystemError) { return try SystemError.check(operation, path(), call) } catch { throw fail(error) }
    }

    /// The stick's root folder: open from admission on (asked before that: EBADF, never a trap).
    var root: FileDescriptor {
        get throws(ExportError) {
            guard let rootFD else { throw fail("open", mountPoint, EBADF) }
            return rootFD
        }
    }

    /// The export folder: open from its making on (asked before that: EBADF, never a trap).
    var exportFolder: FileDescriptor {
        get throws(ExportError) {
            guard let exportFD else { throw fail("open", exportPath, EBADF) }
            return exportFD
        }
    }

    /// Ends the export (`stopped`) when the caller asks.
    func stopIfAsked() throws(ExportError) {
        if shouldStop() { throw ExportError(.stopped, done: done, total: total) }
    }
}
