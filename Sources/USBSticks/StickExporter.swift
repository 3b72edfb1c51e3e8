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

    /// The stick's root folder, opened without following a link (a link is refused): what every use of a
    /// stick starts with, its sounds as much as its photos. The caller closes it.
    public static func openRoot(
        _ mountPoint: String, operations ops: any FileOperations
    ) throws(ExportError) -> Int32 {
        let root = ops.open(mountPoint, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard root >= 0 else {
            let code = errno
            if code == ELOOP { throw ExportError(.refusedLink(mountPoint), done: 0, total: 0) }
            throw ExportError(.failed(SystemError("open", mountPoint, errno: code)), done: 0, total: 0)
        }
        return root
    }

    /// Checks that the folder `root` is the root of the file system mountinfo showed at `mountPoint`: its device
    /// number (st_dev) is `expected` ("major:minor"). A mount made over the stick's, or a folder left where the
    /// stick was, has another: refused before anything is read there. No `expected` (a folder by hand): no check.
    public static func checkDevice(
        of root: Int32, at mountPoint: String, expected: String?, operations ops: any FileOperations
    ) throws(ExportError) {
        guard let expected else { return }
        var info = stat()
        guard ops.fstat(root, &info) == 0 else {
            throw ExportError(.failed(SystemError("stat", mountPoint, errno: errno)), done: 0, total: 0)
        }
        let found = deviceName(info.st_dev)
        guard found == expected else {
            let changed = ExportError.Reason.mountChanged(mountPoint: mountPoint, expected: expected, found: found)
            throw ExportError(changed, done: 0, total: 0)
        }
    }

    /// A device number as mountinfo writes it: "major:minor" (glibc's `major()` and `minor()`, macros Swift does
    /// not import).
    public static func deviceName(_ device: dev_t) -> String {
        let d = UInt64(device)
        return "\(((d >> 8) & 0xfff) | ((d >> 32) & 0xffff_f000)):\((d & 0xff) | ((d >> 12) & 0xffff_ff00))"
    }

    /// The file system type of the stick whose root is `root`, once checked to be one of `allowed`; the second
    /// check every use of a stick starts with.
    public static func checkFileSystem(
        of root: Int32, at mountPoint: String, allowing allowed: Set<String>, operations ops: any FileOperations
    ) throws(ExportError) -> String {
        // A file system whose type cannot even be read is failing: that error, not "unsupported".
        guard let type = fileSystemType(of: root, operations: ops) else {
            throw ExportError(.failed(SystemError("statfs", mountPoint, errno: errno)), done: 0, total: 0)
        }
        guard allowed.contains(type) else { throw ExportError(.unsupportedFileSystem(type), done: 0, total: 0) }
        return type
    }

    /// The name /proc/mounts uses for the file system type holding `fd` ("vfat", "exfat" ...); nil, with
    /// errno set, when it cannot be read.
    public static func fileSystemType(
        of fd: Int32, operations: any FileOperations = SystemFileOperations()
    ) -> String? {
        var magic = 0
        guard operations.fileSystemType(fd, &magic) == 0 else { return nil }
        let names: [Int: String] = [
            0x4d44: "vfat", 0x2011_BAB0: "exfat", 0xEF53: "ext4", 0x0102_1994: "tmpfs", 0x9123_683E: "btrfs",
            0x5846_5342: "xfs", 0x794C_7630: "overlay", 0x5346_544E: "ntfs", 0x6573_5546: "fuseblk",
            0xF2F5_2010: "f2fs",
        ]
        return names[magic] ?? "unknown (0x\(String(magic, radix: 16)))"
    }
}

/// One export's open descriptors and progress.
private final class ExportRun {
    let store: PhotoStore
    let options: ExportOptions
    let mountPoint: String
    /// The stick's device number as mountinfo showed it (nil: a folder by hand, not checked).
    let device: String?
    let ops: any FileOperations
    let file: DurableFile
    var rootFD: Int32 = -1
    var exportFD: Int32 = -1
    var lockFD: Int32 = -1
    var dateFDs: [String: Int32] = [:]
    var manifest = ExportManifest(stickID: PhotoStore.randomID())
    /// This run's copies, not yet recorded in the booth's index: only a read-back after the final
    /// flush records them (a fake-capacity stick overwrites earlier files with later ones).
    var copies: [ExportManifest.Entry] = []
    /// The manifest's claims this run read back and found right, recorded with the copies.
    var claims: [(name: String, checksum: UInt32)] = []
    /// The photos saved undated and dated since whose copies carry their date, by source name.
    var redatings: [String: Redated] = [:]
    /// The photo's own CRC-32 (what the index records) for a copy whose bytes are not the photo's (a dated copy),
    /// read from the photo when it was copied or its copy adopted; by source name.
    var sourceChecksums: [String: UInt32] = [:]

    /// A dated copy of a photo saved undated: its name on the stick and its EXIF segment.
    struct Redated {
        var stickName: String
        var redating: ExifRedating

        /// The copy's size for a photo of `size` bytes.
        func size(of size: Int64) -> Int64 { size - Int64(redating.replaced) + Int64(redating.head.count) }

        /// What is written: the dated head, then the photo from the end of its EXIF segment.
        func contents(_ fd: Int32, path: String) -> DurableFile.Contents {
            .spliced(head: redating.head, descriptor: fd, skip: Int64(redating.replaced), path: path)
        }
    }
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
    }

    func fail(_ operation: String, _ path: String, _ code: Int32 = errno) -> ExportError {
        ExportError(.failed(SystemError(operation, path, errno: code)), done: done, total: total)
    }

    func copyAll(started: () -> Void, progress: (Int, Int) -> Void) throws(ExportError) -> ExportSummary {
        guard FATName.isSafe(options.folder), !options.folder.hasPrefix("."), !options.folder.contains("/") else {
            throw fail("export", options.folder, EINVAL)
        }
        rootFD = try StickExporter.openRoot(mountPoint, operations: ops)
        try StickExporter.checkDevice(of: rootFD, at: mountPoint, expected: device, operations: ops)
        let type = try StickExporter.checkFileSystem(
            of: rootFD, at: mountPoint, allowing: options.allowedFileSystems, operations: ops)
        if let owners = options.owners, !claim {
            guard let id = try ownID(), owners.contains(id) else {
                throw ExportError(.unknownStick(mountPoint: mountPoint), done: 0, total: 0)
            }
        }
        if !claim { started() }
        var volume = statvfs()
        if ops.fstatvfs(rootFD, &volume) == 0, volume.f_flag & 1 /* ST_RDONLY */ != 0 {
            throw fail("export", mountPoint, EROFS)
        }
        exportFD = try openDirectory(options.folder, in: rootFD, path: exportPath, parentPath: mountPoint)
        try lockStick()

        let (loaded, rebuilt) = try readManifest()
        manifest = loaded
        if claim {
            if let owners = options.owners {
                // The stick carries its id before the booth counts it as the owner's.
                try recordNow()
                do { try owners.add(manifest.stickID) } catch { throw ExportError(.failed(error), done: 0, total: 0) }
            }
            started()
        }
        let present = try listPresent()
        let kept = store.records().filter { $0.state == .kept }
        let layouts: [PhotoStore.Layout]
        do { layouts = try store.layouts() } catch { throw ExportError(.failed(error), done: 0, total: 0) }
        // With `export.raw` off nothing is listed: no companion is planned or read back. A companion whose photo is
        // no longer kept (cleanup deleted the JPEG) stays in the store, and off the sticks.
        var companions: [String: [PhotoStore.CompanionFile]] = [:]
        if options.raw {
            let keptNames = Set(kept.map(\.name))
            do {
                companions = Dictionary(
                    grouping: try store.companionFiles().filter { keptNames.contains($0.photo) }, by: \.photo)
            } catch {
                throw ExportError(.failed(error), done: 0, total: 0)
            }
        }
        redatings = try redatings(of: kept)
        let (verified, unverified) = try checkClaims(
            kept: kept, layouts: layouts, companions: companions.values.flatMap { $0 }, present: present)
        manifest.entries.removeAll { unverified.contains($0.path) }
        // A version 1 entry gains its SHA-256 once read back (its file and the booth's photo agree).
        var upgraded = false
        for i in manifest.entries.indices where manifest.entries[i].sha256 == nil {
            if let digest = verified[manifest.entries[i].path], manifest.entries[i].booth == store.boothID {
                manifest.entries[i].sha256 = digest.sha256
                upgraded = true
            }
        }
        // Only the claims read back and found right count as exported; only photos of the index are recorded there.
        claims = manifest.entries.filter {
            $0.booth == store.boothID && verified[$0.path] != nil && ExportPlan.isPhotoSource($0.source)
        }.map {
            ($0.source, sourceChecksums[$0.source] ?? $0.checksum)
        }
        let photos = kept.map { entry in
            let folder = entry.dated.map { PhotoName.DateTime(localSeconds: $0).dateString }
            let raws = (companions[entry.name] ?? []).map { ExportPlan.Photo(name: $0.name, size: $0.size) }
            guard let redated = redatings[entry.name] else {
                return ExportPlan.Photo(name: entry.name, size: entry.size, folder: folder, companions: raws)
            }
            return ExportPlan.Photo(
                name: entry.name, size: redated.size(of: entry.size), folder: folder, stickName: redated.stickName,
                companions: raws)
        }
        let plan = ExportPlan.make(
            photos: photos, layouts: layouts.map { ExportPlan.Photo(name: $0.name, size: $0.size) },
            booth: store.boothID, manifest: manifest, present: present,
            maximumFileSize: type == "vfat" ? FATName.maximumFileSize : nil)
        manifest.entries = plan.kept
        total = plan.items.count
        progress(0, total)
        var summary = ExportSummary(
            stickID: manifest.stickID, copied: 0, adopted: 0, alreadyThere: plan.alreadyThere, skipped: plan.skipped,
            bytes: 0,
            manifestRebuilt: rebuilt, unmounted: false, unmountError: nil)
        summary.layoutsAlreadyThere = plan.layoutsAlreadyThere
        summary.rawAlreadyThere = plan.companionsAlreadyThere
        // A rebuilt manifest or dropped entries are written even when nothing is copied.
        if rebuilt || upgraded || !plan.dropped.isEmpty || !unverified.isEmpty { unrecorded += 1 }

        nextPhoto: for item in plan.items {
            try stopIfAsked()
            let sourcePath = "\(store.directory)/\(ExportPlan.storePath(of: item.source))"
            let source = ops.open(sourcePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
            guard source >= 0 else {
                // Discarded (a retake) since the plan: not exported.
                guard errno == ENOENT else { throw fail("open", sourcePath) }
                // A layout goes when cleanup deletes its first photo.
                summary.skipped.append(ExportPlan.Skip(source: item.source, reason: "no longer kept"))
                total -= 1
                continue
            }
            defer { _ = ops.close(source) }
            let folder = try dateDirectory(item.folder)
            let folderPath = "\(exportPath)/\(item.folder)"
            var attempt = item.attempt
            if item.adopt {
                if let digest = try adoptable(
                    item, source: source, sourcePath: sourcePath, folder: folder, folderPath: folderPath)
                {
                    record(item, name: item.name, digest: digest)
                    summary.count(item, adopted: true)
                    try recordIfDue()
                    progress(done, total)
                    continue
                }
                attempt += 1
            }
            while true {
                guard attempt < ExportPlan.maximumAttempts else {
                    summary.skipped.append(
                        ExportPlan.collisionSkip(item.source, base: item.stickName, folder: item.folder))
                    total -= 1
                    progress(done, total)
                    continue nextPhoto
                }
                try checkRoom(for: item.size, path: "\(folderPath)/\(item.name)")
                let name = ExportPlan.alternativeName(item.baseName, booth: store.boothID, attempt: attempt)
                do {
                    var contents = DurableFile.Contents.file(descriptor: source, path: sourcePath)
                    if let redated = redatings[item.source] {
                        sourceChecksums[item.source] = try DurableFile.checksum(
                            of: source, path: sourcePath, operations: ops
                        ).1
                        contents = redated.contents(source, path: sourcePath)
                    }
                    let digest = try file.write(
                        contents, into: folder, directoryPath: folderPath, name: name,
                        temporaryName: ".\(name).partial", verify: true)
                    record(item, name: name, digest: digest)
                    summary.count(item, adopted: false)
                    summary.bytes += item.size
                    break
                } catch {
                    // Someone else's file took the name since the listing: the next name.
                    guard error.operation == "rename", error.errno == EEXIST else {
                        throw ExportError(.failed(error), done: done, total: total)
                    }
                    attempt += 1
                    guard ops.lseek(source, 0, SEEK_SET) == 0 else { throw fail("lseek", sourcePath) }
                }
            }
            try recordIfDue()
            progress(done, total)
        }
        summary.joinCardCopied = try copyJoinCard()
        return summary
    }

    /// The join card's name in the export folder.
    static let joinCardName = "join-card.pdf"

    /// Copies the join card (`options.joinCard`) into the export folder when the stick has not the same bytes, so a
    /// booth with no screen hands it over with the photos: whole or not at all (read back before its rename), never
    /// more than 4 MiB. Returns whether it was copied; no card kept is nothing to copy.
    func copyJoinCard() throws(ExportError) -> Bool {
        guard let path = options.joinCard else { return false }
        try stopIfAsked()
        let source = ops.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        guard source >= 0 else {
            if errno == ENOENT { return false }
            throw fail("open", path)
        }
        defer { _ = ops.close(source) }
        let card: [UInt8]
        do { card = try FileReading.readAll(source, limit: 4 << 20) } catch { throw fail("read", path, EFBIG) }
        let name = Self.joinCardName
        let target = "\(exportPath)/\(name)"
        let existing = ops.openat(exportFD, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
        if existing >= 0 {
            defer { _ = ops.close(existing) }
            if (try? FileReading.readAll(existing, limit: 4 << 20)) == card { return false }
        }
        try checkRoom(for: Int64(card.count), path: target)
        do {
            try file.write(
                .bytes(card), into: exportFD, directoryPath: exportPath, name: name, temporaryName: ".\(name).partial",
                replacing: true, verify: true)
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
        return true
    }

    /// Writes the manifest, flushes, reads this run's copies back and records them, and unmounts.
    func finish(_ summary: inout ExportSummary) throws(ExportError) {
        if unrecorded > 0 { try recordNow() }
        guard ops.syncfs(rootFD) == 0 else { throw fail("syncfs", mountPoint) }
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
        guard !stickRemoved, !refused, rootFD >= 0 else { return false }
        if exportFD >= 0, unrecorded > 0 { try? recordNow() }
        if ops.syncfs(rootFD) == 0, exportFD >= 0, !stopped { try? verifyCopiesAndRecord() }
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
                try file.verify(
                    parts[1], in: folder, path: "\(exportPath)/\(copy.path)", size: copy.size, checksum: copy.checksum)
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

    /// Ends the export (`stopped`) when the caller asks.
    private func stopIfAsked() throws(ExportError) {
        if shouldStop() { throw ExportError(.stopped, done: done, total: total) }
    }

    /// Waits for another export to this stick to finish, then holds the stick's lock until
    /// `closeAll` (flock: local, and FAT supports it).
    private func lockStick() throws(ExportError) {
        lockFD = ops.openat(exportFD, StickExporter.lockName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard lockFD >= 0 else { throw fail("open", "\(exportPath)/\(StickExporter.lockName)") }
        let result = SystemError.retryingInterrupts { ops.flock(lockFD, LOCK_EX) }
        guard result == 0 else { throw fail("flock", "\(exportPath)/\(StickExporter.lockName)") }
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

    private func record(_ item: ExportPlan.Item, name: String, digest: ContentDigest) {
        let entry = ExportManifest.Entry(
            booth: store.boothID, source: item.source, path: "\(item.folder)/\(name)", digest: digest)
        manifest.entries.append(entry)
        copies.append(entry)
        unrecorded += 1
        done += 1
    }

    private func recordIfDue() throws(ExportError) {
        if unrecorded >= options.recordEvery { try recordNow() }
    }

    /// The manifest (the stick's truth, so a pulled stick resumes); the booth's index waits for the
    /// read-back after the final flush.
    private func recordNow() throws(ExportError) {
        do {
            try file.write(
                .bytes(Array(manifest.encode().utf8)), into: exportFD, directoryPath: exportPath,
                name: StickExporter.manifestName,
                temporaryName: ".\(StickExporter.manifestName).partial", replacing: true, verify: true)
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
        unrecorded = 0
    }

    /// Opens the folder `name` in `parent`, creating it if needed. A folder it creates is flushed
    /// through its parent at once: on FAT, mkdir writes the parent's entry, the FAT chain and the new
    /// folder's own cluster ('.' and '..') in no fixed order, and only the parent's fsync writes that
    /// cluster. Until then a power cut can leave a folder fsck has to rebuild (the power-cut-stick rig
    /// scenario saw it at every flush between the export folder's mkdir and the first photo's rename).
    private func openDirectory(
        _ name: String, in parent: Int32, path: String, parentPath: String
    ) throws(ExportError) -> Int32 {
        let created = ops.mkdirat(parent, name, 0o755) == 0
        if !created, errno != EEXIST { throw fail("mkdir", path) }
        let fd = ops.openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else {
            if errno == ELOOP || errno == ENOTDIR { throw ExportError(.refusedLink(path), done: done, total: total) }
            throw fail("open", path)
        }
        if created, ops.fsync(parent) != 0 {
            let failure = fail("fsync", parentPath)
            _ = ops.close(fd)
            throw failure
        }
        return fd
    }

    private func dateDirectory(_ folder: String) throws(ExportError) -> Int32 {
        if let fd = dateFDs[folder] { return fd }
        let fd = try openDirectory(folder, in: exportFD, path: "\(exportPath)/\(folder)", parentPath: exportPath)
        dateFDs[folder] = fd
        return fd
    }

    private func checkRoom(for size: Int64, path: String) throws(ExportError) {
        var volume = statvfs()
        guard ops.fstatvfs(exportFD, &volume) == 0 else { return }
        // Room for the file plus slack for folder entries and the manifest.
        let free = Int64(volume.f_bavail) * Int64(volume.f_frsize)
        if free < size + 256 * 1024 { throw fail("write", path, ENOSPC) }
    }

    /// The digest of a file of the right size already there, when it is the booth's photo (its SHA-256 too).
    private func adoptable(
        _ item: ExportPlan.Item, source: Int32, sourcePath: String, folder: Int32, folderPath: String
    ) throws(ExportError) -> ContentDigest? {
        let existing = ops.openat(folder, item.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard existing >= 0 else {
            if errno == ENOENT || errno == ELOOP { return nil }
            throw fail("open", "\(folderPath)/\(item.name)")
        }
        defer { _ = ops.close(existing) }
        do throws(SystemError) {
            _ = ops.dropCache(existing)
            let there = try DurableFile.digest(of: existing, path: "\(folderPath)/\(item.name)", operations: ops)
            var ours = try DurableFile.digest(of: source, path: sourcePath, operations: ops)
            if let redated = redatings[item.source] {
                sourceChecksums[item.source] = ours.crc32
                ours = try DurableFile.digest(of: redated.contents(source, path: sourcePath), operations: ops)
            }
            guard ops.lseek(source, 0, SEEK_SET) == 0 else { throw SystemError("lseek", sourcePath, errno: errno) }
            return there == ours && ours.size == item.size ? ours : nil
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
    }

    /// The dated copies of `kept` photos saved undated and dated since (a phone set the clock): each one's stick name
    /// (`HeyLook_YYYY-MM-DD_HH-MM-SS_NNNNNN.jpg`, its local date and time) and EXIF segment with that date, made from
    /// the photo's first bytes. A photo with no EXIF segment of the booth's is copied as saved; one discarded since
    /// the listing is left out (the copy skips it).
    private func redatings(of kept: [PhotoIndex.Entry]) throws(ExportError) -> [String: Redated] {
        var found: [String: Redated] = [:]
        for entry in kept {
            guard let seconds = entry.dated, let name = PhotoName(fileName: entry.name), name.dateTime == nil else {
                continue
            }
            try stopIfAsked()
            let dateTime = PhotoName.DateTime(localSeconds: seconds)
            let path = "\(store.directory)/\(entry.name)"
            let fd = ops.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
            guard fd >= 0 else {
                if errno == ENOENT { continue }
                throw fail("open", path)
            }
            defer { _ = ops.close(fd) }
            var prefix = [UInt8](repeating: 0, count: ExifRedating.prefixLimit)
            var count = 0
            while count < prefix.count {
                let read = SystemError.retryingInterrupts {
                    prefix.withUnsafeMutableBytes {
                        ops.read(fd, UnsafeMutableRawBufferPointer(rebasing: $0[count...]))
                    }
                }
                if read == 0 { break }
                if read < 0 { throw fail("read", path) }
                count += read
            }
            guard let redating = try? ExifRedating(prefix: Array(prefix[..<count]), dateTime: dateTime.exifString)
            else { continue }
            found[entry.name] = Redated(
                stickName: PhotoName(dateTime: dateTime, sequence: name.sequence).fileName, redating: redating)
        }
        return found
    }

    /// The manifest's entries for this booth's kept photos, read back: `verified`, by path, those whose file on
    /// the stick holds that very photo (its size, CRC-32 and SHA-256 are the manifest's and the booth's own
    /// file's: a CRC-32 can be forged, a SHA-256 cannot); `unverified` those whose file does not (a crafted or
    /// stale manifest, a file replaced since). "Already on this stick" means the content is there, so each
    /// claimed photo is read back once per insert, and the booth's own photo once with it; the plan then sees an
    /// unverified file as a stranger's and copies the photo beside it. An entry whose file is missing or of
    /// another size is in neither (the plan drops it).
    private func checkClaims(
        kept: [PhotoIndex.Entry], layouts: [PhotoStore.Layout], companions: [PhotoStore.CompanionFile],
        present: [String: Int64]
    ) throws(ExportError) -> (verified: [String: ContentDigest], unverified: Set<String>) {
        var saved = Dictionary(kept.map { ($0.name, $0.checksum) }) { first, _ in first }
        // A layout's or a companion's claim is read back as a photo's whose checksum the index does not know (a
        // companion's bytes are never rewritten: its copy must be the file in the store).
        for layout in layouts { saved[layout.name] = .some(nil) }
        for companion in companions { saved[companion.name] = .some(nil) }
        // FAT is case-insensitive: a claim names the file in any case; open it by its listed name.
        let listed = Dictionary(present.keys.map { ($0.lowercased(), $0) }) { first, _ in first }
        var verified: [String: ContentDigest] = [:]
        var unverified: Set<String> = []
        for entry in manifest.entries where entry.booth == store.boothID {
            guard let expected = saved[entry.source] else { continue }  // not kept: never planned
            guard let path = listed[entry.path.lowercased()], present[path] == entry.size else { continue }
            try stopIfAsked()
            let parts = path.split(separator: "/")
            let folder = try dateDirectory(String(parts[0]))
            let there = try digest(of: String(parts[1]), in: folder, path: "\(exportPath)/\(path)", dropCache: true)
            // A dated copy's checksum is not the photo's: it is checked against the photo read below.
            let redated = redatings[entry.source]
            guard entry.matches(there), expected == nil || expected == entry.checksum || redated != nil else {
                unverified.insert(entry.path)
                continue
            }
            let sourcePath = "\(store.directory)/\(ExportPlan.storePath(of: entry.source))"
            let source = ops.open(sourcePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW, 0)
            guard source >= 0 else {
                if errno == ENOENT { continue }  // discarded since the listing: never planned
                throw fail("open", sourcePath)
            }
            defer { _ = ops.close(source) }
            do throws(SystemError) {
                let ours = try DurableFile.digest(of: source, path: sourcePath, operations: ops)
                // The stick holds the photo itself, or (a photo saved undated and dated since) its dated copy.
                let unchanged = expected == nil || expected == ours.crc32
                var holds = there == ours && unchanged
                if !holds, unchanged, let redated {
                    holds =
                        there
                        == (try DurableFile.digest(of: redated.contents(source, path: sourcePath), operations: ops))
                    if holds { sourceChecksums[entry.source] = ours.crc32 }
                }
                if holds {
                    verified[entry.path] = there
                } else {
                    unverified.insert(entry.path)
                }
            } catch {
                throw ExportError(.failed(error), done: done, total: total)
            }
        }
        return (verified, unverified)
    }

    /// The digest of `name` in `folder` on the stick, read from the device when `dropCache`.
    private func digest(
        of name: String, in folder: Int32, path: String, dropCache: Bool
    ) throws(ExportError) -> ContentDigest {
        let fd = ops.openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else { throw fail("open", path) }
        defer { _ = ops.close(fd) }
        if dropCache { _ = ops.dropCache(fd) }
        do {
            return try DurableFile.digest(of: fd, path: path, operations: ops)
        } catch {
            throw ExportError(.failed(error), done: done, total: total)
        }
    }

    /// The manifest on the stick, or a rebuilt (empty) one when it is missing or damaged: the plan
    /// then verifies the files present instead of trusting anything.
    /// The id the stick's manifest carries, read without creating or changing anything on the stick; nil when
    /// there is no export folder or manifest (or a link in either's place), or no id can be read from it.
    private func ownID() throws(ExportError) -> String? {
        let folder = ops.openat(rootFD, options.folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard folder >= 0 else {
            guard [ENOENT, ELOOP, ENOTDIR].contains(errno) else { throw fail("open", exportPath) }
            return nil
        }
        defer { _ = ops.close(folder) }
        guard case .text(let text) = try manifestFile(in: folder) else { return nil }
        return ExportManifest.decode(text)?.stickID ?? ExportManifest.salvageStickID(text)
    }

    /// What is where the manifest should be in the export folder `folder`.
    private enum ManifestFile {
        /// Nothing: a new stick.
        case missing
        /// A link, a folder, or not a regular file under 16 MiB: not a manifest the booth wrote.
        case unusable
        /// A regular file's text.
        case text(String)
    }

    /// Reads the manifest in `folder`, never following a link; throws only when the stick fails (EIO ...).
    private func manifestFile(in folder: Int32) throws(ExportError) -> ManifestFile {
        let path = "\(exportPath)/\(StickExporter.manifestName)"
        let fd = ops.openat(folder, StickExporter.manifestName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard fd >= 0 else {
            let code = errno
            guard code == ENOENT || code == ELOOP || code == EISDIR else { throw fail("open", path, code) }
            return code == ENOENT ? .missing : .unusable
        }
        defer { _ = ops.close(fd) }
        var info = stat()
        guard ops.fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size < 16 << 20 else {
            return .unusable
        }
        do {
            let bytes = try FileReading.readAll(fd, limit: 16 << 20) { ops.read($0, $1) }
            return .text(String(decoding: bytes, as: UTF8.self))
        } catch .tooLarge {
            return .unusable  // Grew since fstat: not ours.
        } catch {
            throw fail("read", path)
        }
    }

    /// The stick's manifest, or a new one (keeping the id a damaged one still shows); `rebuilt` when something
    /// unusable was in its place.
    private func readManifest() throws(ExportError) -> (ExportManifest, rebuilt: Bool) {
        // Missing: a new stick. A link or a folder in its place, or an odd file: rebuilt (it is replaced, never
        // followed).
        switch try manifestFile(in: exportFD) {
        case .missing: return (ExportManifest(stickID: PhotoStore.randomID()), false)
        case .unusable: return (ExportManifest(stickID: PhotoStore.randomID()), true)
        case .text(let text):
            if let manifest = ExportManifest.decode(text) { return (manifest, false) }
            return (ExportManifest(stickID: ExportManifest.salvageStickID(text) ?? PhotoStore.randomID()), true)
        }
    }

    /// The regular files in the date folders (`folder/name` → size); removes temp files an
    /// interrupted export left, and empty files under export names. Only names an export writes are
    /// ever removed (`ExportPlan.isExportName`): anybody else's file stays. Links and odd names are
    /// ignored (they only occupy names).
    private func listPresent() throws(ExportError) -> [String: Int64] {
        var present: [String: Int64] = [:]
        for (folder, mode, _) in try entries(of: exportFD, path: exportPath)
        where mode == S_IFDIR && !folder.hasPrefix(".") {
            let fd = ops.openat(exportFD, folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
            guard fd >= 0 else { throw fail("open", "\(exportPath)/\(folder)") }
            defer { _ = ops.close(fd) }
            let listed = try entries(of: fd, path: "\(exportPath)/\(folder)")
            let names = Set(listed.map(\.0))
            for (name, mode, size) in listed {
                let temporaryOf = name.hasPrefix(".") ? String(name.dropFirst().dropLast(".partial".count)) : ""
                if name.hasSuffix(".partial") && ExportPlan.isExportName(temporaryOf) && mode == S_IFREG {
                    // Should a FAT rename ever leave the temp name and the final name on the same
                    // clusters (DurableFile's order prevents it), deleting the temp would free the
                    // photo's: left alone then.
                    if !names.contains(temporaryOf) {
                        _ = ops.unlinkat(fd, name, 0)
                    }
                } else if mode == S_IFREG && size == 0 && ExportPlan.isExportName(name) {
                    // An empty file under a photo's name: what a pull between the two flushes of a FAT
                    // rename leaves (see DurableFile). It holds nothing and owns no clusters: removed,
                    // so the photo is copied again under its own name.
                    if ops.unlinkat(fd, name, 0) != 0 { present["\(folder)/\(name)"] = -1 }
                } else if mode == S_IFREG {
                    present["\(folder)/\(name)"] = size
                } else {
                    present["\(folder)/\(name)"] = -1  // occupied by something that is not a photo
                }
            }
        }
        return present
    }

    /// The entries of `directory` (name, file type, size), links not followed. An entry gone between
    /// the listing and its stat is left out; any other failure means the stick is failing.
    private func entries(of directory: Int32, path: String) throws(ExportError) -> [(String, mode_t, Int64)] {
        guard let names = ops.names(in: directory) else { throw fail("opendir", path) }
        var result: [(String, mode_t, Int64)] = []
        for name in names {
            var info = stat()
            guard ops.fstatat(directory, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if errno == ENOENT { continue }
                throw fail("stat", "\(path)/\(name)")
            }
            result.append((name, info.st_mode & S_IFMT, Int64(info.st_size)))
        }
        return result
    }
}
