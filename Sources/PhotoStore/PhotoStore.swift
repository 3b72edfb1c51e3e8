import BoothCore
import Glibc

/// The booth's photos on its own storage: crash-safe saves under date-time + sequence names,
/// retakes moved aside (never deleted), leftover temp files removed at start, and a free-space guard.
///
/// Not thread-safe: the booth uses one store from its one save worker; `@unchecked Sendable` so the
/// worker can own it.
public final class PhotoStore: @unchecked Sendable {
    /// The folder of kept photos.
    public let directory: String
    /// Free space below which new photos are refused, in bytes.
    public let reserve: Int64
    private let file: DurableFile
    private var lastSequence: Int

    /// The folder retakes are moved to.
    public var discardedDirectory: String { "\(directory)/discarded" }

    /// Opens (creating if needed) the store in `directory`; removes temp files a crash left behind.
    public init(
        directory: String, reserve: Int64, operations: any FileOperations = SystemFileOperations()
    ) throws(StoreError) {
        self.directory = directory
        self.reserve = reserve
        self.file = DurableFile(operations: operations)
        try Self.makeDirectories(directory)
        try Self.makeDirectories("\(directory)/discarded")
        let names = try Self.fileNames(in: directory)
        for name in names where name.hasSuffix(".partial") {
            _ = Glibc.unlink("\(directory)/\(name)")
        }
        let discarded = try Self.fileNames(in: "\(directory)/discarded")
        lastSequence = (names + discarded).compactMap { PhotoName(fileName: $0)?.sequence }.max() ?? 0
    }

    /// Saves `jpeg` durably under the next name; returns its path. Refuses (ENOSPC) when saving would
    /// leave less than the reserve; nothing is left behind on any failure.
    public func save(_ jpeg: [UInt8], takenAt dateTime: PhotoName.DateTime) throws(StoreError) -> String {
        if let free = freeBytes(), free - Int64(jpeg.count) < reserve {
            throw StoreError("save", directory, errno: ENOSPC)
        }
        let name = PhotoName(dateTime: dateTime, sequence: lastSequence + 1)
        try file.write(jpeg, directory: directory, name: name.fileName, temporaryName: name.temporaryFileName)
        lastSequence += 1
        return "\(directory)/\(name.fileName)"
    }

    /// Moves a photo to the discarded folder (a retake); the move is atomic and durable.
    public func discard(_ path: String) throws(StoreError) {
        let name = String(path.split(separator: "/").last ?? "")
        guard PhotoName(fileName: name) != nil, path == "\(directory)/\(name)" else {
            throw StoreError("discard", path, errno: EINVAL)
        }
        let target = "\(discardedDirectory)/\(name)"
        guard file.operations.renameNoReplace(path, target) == 0 else { throw StoreError("rename", path, errno: errno) }
        try file.syncDirectory(directory)
        try file.syncDirectory(discardedDirectory)
    }

    /// The kept photos' file names, oldest first.
    public func keptPhotos() throws(StoreError) -> [String] {
        try Self.fileNames(in: directory)
            .compactMap { PhotoName(fileName: $0) }
            .sorted()
            .map(\.fileName)
    }

    /// Bytes available to the booth's user on the store's file system, or nil if unknown.
    public func freeBytes() -> Int64? {
        var stats = statvfs()
        guard statvfs(directory, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// Whether a typical photo (`photoBytes`) still fits above the reserve.
    public func hasRoom(photoBytes: Int64 = 8 * 1024 * 1024) -> Bool {
        guard let free = freeBytes() else { return true }
        return free - photoBytes >= reserve
    }

    /// Creates `path` and its parents (mode 0755).
    public static func makeDirectories(_ path: String) throws(StoreError) {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw StoreError("mkdir", current, errno: errno)
            }
        }
    }

    /// The names in a folder, without "." and "..".
    public static func fileNames(in directory: String) throws(StoreError) -> [String] {
        guard let dir = opendir(directory) else { throw StoreError("opendir", directory, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
