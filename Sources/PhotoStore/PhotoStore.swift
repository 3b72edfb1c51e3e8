// PhotoStore: the booth's photos on its own storage.
import BoothSystem
import Checksum
import Glibc
import PhotoModel
import Synchronization

/// The booth's photos on its own storage: crash-safe saves under date-time + sequence names,
/// retakes moved aside (never deleted), leftover temp files removed at start, and a free-space guard.
///
/// An index (`index.txt`, written atomically) records each photo's state and the sticks it was
/// exported to; it is reconciled with the files at start and rebuilt from them when missing or
/// damaged. The booth's id (`booth-id`, made up on first start) sits beside it.
///
/// Saves, discards and cleanup come from one thread (the save worker); the index is also updated by
/// the export worker, so it is behind a lock. `@unchecked Sendable` so the workers can share it.
public final class PhotoStore: @unchecked Sendable {
    /// The folder of kept photos.
    public let directory: String
    /// Free space below which new photos are refused, in bytes.
    public let reserve: Int64
    /// This booth's id, which keeps its photos apart from other booths' on a shared stick.
    public let boothID: String
    /// The id this store had when it was made on another machine (an SD card cloned or moved), now
    /// replaced by `boothID`; nil otherwise.
    public let replacedBoothID: String?
    /// Whether the index was missing or damaged at start and rebuilt from the photos there.
    public let indexWasRebuilt: Bool
    /// How many of the index's entries disagreed with the photos at start (a photo added, removed or changed
    /// by hand, or a save cut short before its index line) and were corrected from the files; 0 when rebuilt.
    public let indexEntriesCorrected: Int
    let file: DurableFile
    private var lastSequence: Int
    private let index: Mutex<PhotoIndex>
    /// The last index write's failure, nil after a success (`indexFailure`).
    private let failure = Mutex<SystemError?>(nil)
    /// The index file this store wrote last (nil: none yet, or a write failed): one still in place is not read
    /// back before the next write.
    private let lastWritten = Mutex<FileStamp?>(nil)

    /// The index's file name in the store's folder.
    public static let indexName = "index.txt"
    /// The booth id's file name in the store's folder.
    public static let boothIDName = "booth-id"

    /// The folder retakes are moved to.
    public var discardedDirectory: String { "\(directory)/discarded" }

    /// The folder of the print layouts made from the photos in `directory` (files derived from photos, not entries
    /// of the index).
    public static func layoutsDirectory(of directory: String) -> String { "\(directory)/layouts" }

    /// Opens (creating if needed) the store in `directory`; removes temp files a crash left behind.
    /// Commands that may run beside the booth (`booth export`, `booth doctor`) pass
    /// `removingLeftovers: false`: a temp file there may be the photo the running booth is saving.
    /// `machine` names the machine the booth runs on (`BoothIdentity`).
    public init(
        directory: String, reserve: Int64, removingLeftovers: Bool = true,
        operations: any FileOperations = SystemFileOperations(), machine: String? = PhotoStore.machineName()
    ) throws(SystemError) {
        self.directory = directory
        self.reserve = reserve
        self.file = DurableFile(operations: operations)
        try Self.makeDirectories(directory, operations: operations)
        try Self.makeDirectories("\(directory)/discarded", operations: operations)
        // Under the folder's lock: another process's index or booth-id temp file is never taken for a
        // crash's leftover, and two processes starting on a new folder agree on one booth id.
        let file = self.file
        let (names, identity) = try Self.withFolderLock(directory, operations) { () throws(SystemError) in
            let names = try Self.fileNames(in: directory, operations: operations)
            for name in names where removingLeftovers && name.hasSuffix(".partial") {
                _ = operations.unlink("\(directory)/\(name)")
            }
            return (names, try Self.loadBoothID(directory: directory, file: file, machine: machine))
        }
        (boothID, replacedBoothID) = identity
        let discarded = try Self.fileNames(in: "\(directory)/discarded", operations: operations)
        lastSequence = (names + discarded).compactMap(Self.sequence(of:)).max() ?? 0
        let listing = Self.listing(directory: directory, kept: names, discarded: discarded, operations: operations)
        let stored = Self.readSmallFile("\(directory)/\(Self.indexName)", operations: operations)
            .flatMap(PhotoIndex.decode)
        var loaded = stored ?? PhotoIndex.rebuilt(from: listing)
        let changed = loaded.reconcile(with: listing)
        indexWasRebuilt = stored == nil && !listing.isEmpty
        indexEntriesCorrected = stored == nil ? 0 : changed
        index = Mutex(loaded)
        if stored == nil || changed > 0 { try writeIndex() }
    }

    /// The index of `directory` as it would be after opening, without changing anything there (for
    /// `booth photos` while the booth runs, and `booth doctor`, often run as root).
    public static func inspect(directory: String) throws(SystemError) -> [PhotoIndex.Entry] {
        let names = try fileNames(in: directory)
        let discarded = (try? fileNames(in: "\(directory)/discarded")) ?? []
        let listing = listing(
            directory: directory, kept: names, discarded: discarded, operations: SystemFileOperations())
        var index = readSmallFile("\(directory)/\(indexName)").flatMap(PhotoIndex.decode) ?? PhotoIndex()
        index.reconcile(with: listing)
        return index.sorted
    }

    /// Every photo's entry, oldest first (a snapshot).
    public func records() -> [PhotoIndex.Entry] {
        index.withLock { $0.sorted }
    }

    /// Records that verified copies of `photos` (name and CRC-32) are on stick `stick`, durably.
    public func markExported(_ photos: [(name: String, checksum: UInt32)], to stick: String) throws(SystemError) {
        guard !photos.isEmpty else { return }
        index.withLock { index in
            for photo in photos { index.markExported(photo.name, checksum: photo.checksum, to: stick) }
        }
        try writeIndex()
    }

    /// Optional cleanup when space runs low: deletes kept photos that have a verified copy on at
    /// least one stick (one of `sticks`, when given: the owner's), oldest first, until `target` bytes are free.
    /// A photo never exported (and every discarded one) is never deleted. Returns the names removed.
    public func removeExportedPhotos(
        untilFree target: Int64, countingOnly sticks: Set<String>? = nil
    ) throws(SystemError) -> [String] {
        var removed: [String] = []
        let removable = index.withLock { $0.removableWhenFull }.filter { entry in
            sticks.map { !entry.exportedTo.isDisjoint(with: $0) } ?? true
        }
        for entry in removable {
            if let free = freeBytes(), free >= target { break }
            let path = "\(directory)/\(entry.name)"
            try SystemError.check("unlink", path) { file.operations.unlink(path) }
            index.withLock { $0.remove(entry.name) }
            removed.append(entry.name)
            try file.syncDirectory(directory)
            removeLayouts(namedAfter: entry.name)
        }
        if !removed.isEmpty { try writeIndex() }
        return removed
    }

    /// A file of the same shot kept beside a photo (the camera's RAW): its extension ("cr2", lowercase) and bytes.
    public struct Companion: Sendable, Equatable {
        public var fileExtension: String
        public var bytes: [UInt8]

        public init(fileExtension: String, bytes: [UInt8]) {
            self.fileExtension = fileExtension
            self.bytes = bytes
        }
    }

    /// Saves `jpeg` durably under the next name, dated `dateTime` (nil: undated), and its index line with its
    /// CRC-32 and, undated, the moment it was taken (`taken`: what dates it once a phone sets the clock); returns
    /// its path. `companions` (a RAW) are written durably first, beside it under its name with their extension: they
    /// are not photos (no index line; the gallery takes the JPEG alone, and so do the sticks unless `export.raw`) and
    /// go aside with it on a retake. Refuses (ENOSPC) when saving would leave less than the reserve, and an extension
    /// that cannot name a companion (EINVAL); nothing is left behind on any failure.
    public func save(
        _ jpeg: [UInt8], takenAt dateTime: PhotoName.DateTime?, moment taken: BootInstant? = nil,
        companions: [Companion] = []
    ) throws(SystemError) -> String {
        let bytes = companions.reduce(Int64(jpeg.count)) { $0 + Int64($1.bytes.count) }
        if let free = freeBytes(), !room.fits(bytes, free: free) {
            throw SystemError("save", directory, errno: ENOSPC)
        }
        // Past a file named with the maximum number, the lowest free number (both folders listed: a
        // retake keeps its name); the no-replace rename still refuses a taken name (EEXIST), so no photo
        // is ever overwritten.
        let next = PhotoName.sequence(after: lastSequence) {
            let names =
                ((try? Self.fileNames(in: directory, operations: file.operations)) ?? [])
                + ((try? Self.fileNames(in: discardedDirectory, operations: file.operations)) ?? [])
            return Set(names.compactMap(Self.sequence(of:)))
        }
        guard let next else { throw SystemError("save", directory, errno: EEXIST) }
        let name = PhotoName(dateTime: dateTime, sequence: next)
        var written: [String] = []
        do throws(SystemError) {
            for companion in companions {
                guard let companionName = name.companionFileName(extension: companion.fileExtension) else {
                    throw SystemError(
                        "save", "\(directory)/\(name.fileName) (.\(companion.fileExtension))", errno: EINVAL)
                }
                try file.write(
                    companion.bytes, directory: directory, name: companionName,
                    temporaryName: ".\(companionName).partial")
                written.append(companionName)
            }
            try file.write(jpeg, directory: directory, name: name.fileName, temporaryName: name.temporaryFileName)
        } catch {
            for companionName in written { _ = file.operations.unlink("\(directory)/\(companionName)") }
            if !written.isEmpty { try? file.syncDirectory(directory) }
            throw error
        }
        lastSequence = max(lastSequence, name.sequence)
        let entry = PhotoIndex.Entry(
            name: name.fileName, state: .kept, size: Int64(jpeg.count), checksum: CRC32.checksum(jpeg),
            taken: dateTime == nil ? taken : nil)
        index.withLock { $0.record(entry) }
        // The index too, before the save is acknowledged: a power cut from then on keeps the photo's line with
        // the CRC-32 it was saved with (what `cleanup_exported` and the gallery's ZIPs rely on). Should only this
        // write fail, the photo itself is complete (the save stands, and the next start lists it again):
        // `indexFailure` says so until an index write succeeds.
        try? writeIndex()
        return "\(directory)/\(name.fileName)"
    }

    /// Dates the undated photos taken in `mark`'s boot (`PhotoIndex.date(by:)`) and writes the index when any was;
    /// returns how many.
    @discardableResult
    public func date(by mark: ClockMark) throws(SystemError) -> Int {
        let count = index.withLock { $0.date(by: mark) }
        if count > 0 { try writeIndex() }
        return count
    }

    /// Why the last index write failed, while the index on disk is behind the photos (nil once a write succeeds).
    public var indexFailure: SystemError? { failure.withLock { $0 } }

    /// Moves a photo to the discarded folder (a retake); the move is atomic and durable.
    public func discard(_ path: String) throws(SystemError) {
        let name = FilePath(path).name
        guard PhotoName(fileName: name) != nil, path == "\(directory)/\(name)" else {
            throw SystemError("discard", path, errno: EINVAL)
        }
        let target = "\(discardedDirectory)/\(name)"
        try SystemError.check("rename", path) { file.operations.renameNoReplace(path, target) }
        index.withLock { $0.setState(name, .discarded) }
        // Its companions (a RAW) follow it; one that cannot is left where it is (kept, never lost).
        if let photo = PhotoName(fileName: name) {
            for other in (try? Self.fileNames(in: directory, operations: file.operations)) ?? []
            where PhotoName(companionFileName: other) == photo {
                _ = file.operations.renameNoReplace("\(directory)/\(other)", "\(discardedDirectory)/\(other)")
            }
        }
        try file.syncDirectory(directory)
        try file.syncDirectory(discardedDirectory)
        try? writeIndex()  // The retake is aside either way; `indexFailure` says so.
    }

    /// The number a file of the store holds: a photo's, or its companion's (a RAW left alone by a save cut short
    /// holds its number too); nil for any other file.
    static func sequence(of fileName: String) -> Int? {
        (PhotoName(fileName: fileName) ?? PhotoName(companionFileName: fileName))?.sequence
    }

    /// The kept photos' file names, oldest first.
    public func keptPhotos() throws(SystemError) -> [String] {
        try Self.fileNames(in: directory, operations: file.operations)
            .compactMap { PhotoName(fileName: $0) }
            .sorted()
            .map(\.fileName)
    }

    /// Bytes available to the booth's user on the store's file system, or nil if unknown.
    public func freeBytes() -> Int64? {
        Self.freeBytes(at: directory, operations: file.operations)
    }

    /// Bytes available to an unprivileged user on the file system holding `path`, or nil if unknown.
    public static func freeBytes(
        at path: String, operations: any FileOperations = SystemFileOperations()
    ) -> Int64? {
        var stats = statvfs()
        guard operations.statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Whether a typical photo still fits above the reserve (true where the free space is unknown).
    public func hasRoom() -> Bool {
        guard let free = freeBytes() else { return true }
        return room.hasRoom(free: free)
    }

    /// The store's free-space thresholds.
    public var room: FreeSpaceRule { FreeSpaceRule(reserve: reserve) }

    /// Writes the index atomically; both workers call it.
    private func writeIndex() throws(SystemError) {
        // The snapshot is taken inside the write lock, so a later write never carries older state.
        try Self.indexWriteLock.withLock { _ throws(SystemError) in
            // Another process (`booth export` beside the booth) may write it too: take the folder's lock
            // and use a temp name of this process's own, so two writers never share a temp file.
            try Self.withFolderLock(directory, file.operations) { () throws(SystemError) in try writeIndexLocked() }
        }
    }

    /// `writeIndex` once the folder's lock is held.
    private func writeIndexLocked() throws(SystemError) {
        let ops = file.operations
        // Under that lock, what the other writer recorded is merged in, so neither overwrites
        // the other's export records. A file still the one this store wrote last (same inode, size and
        // time: the other writer renames a new file into place) holds nothing new and is not read again.
        let indexPath = "\(directory)/\(Self.indexName)"
        var info = stat()
        let current = ops.lstat(indexPath, &info) == 0 ? FileStamp(info) : nil
        let onDisk =
            current != nil && current == lastWritten.withLock({ $0 })
            ? nil : Self.readSmallFile(indexPath, operations: ops).flatMap(PhotoIndex.decode)
        let text = index.withLock { index in
            if let onDisk {
                index.merge(onDisk) { entry in
                    var info = stat()
                    let folder = entry.state == .kept ? directory : discardedDirectory
                    return ops.lstat("\(folder)/\(entry.name)", &info) == 0 && info.st_size == entry.size
                }
            }
            return index.encode()
        }
        do throws(SystemError) {
            try file.write(
                Array(text.utf8), directory: directory, name: Self.indexName,
                temporaryName: ".\(Self.indexName).\(getpid()).partial",
                replacing: true)
            failure.withLock { $0 = nil }
            let written = ops.lstat(indexPath, &info) == 0 ? FileStamp(info) : nil
            lastWritten.withLock { $0 = written }
        } catch {
            failure.withLock { $0 = error }
            lastWritten.withLock { $0 = nil }
            throw error
        }
    }

    /// Serialises index writes (both workers write it).
    private static let indexWriteLock = Mutex(())

    /// Which file a path held when this store last wrote it: inode, size and modification time.
    private struct FileStamp: Equatable {
        let inode: UInt64
        let size: Int64
        let modified: (seconds: Int, nanoseconds: Int)

        init(_ info: stat) {
            (inode, size) = (UInt64(info.st_ino), Int64(info.st_size))
            modified = (info.st_mtim.tv_sec, info.st_mtim.tv_nsec)
        }

        static func == (a: FileStamp, b: FileStamp) -> Bool {
            a.inode == b.inode && a.size == b.size && a.modified == b.modified
        }
    }
}
