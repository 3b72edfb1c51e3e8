// ThumbnailStore: each photo's thumbnail, made once (libjpeg-turbo's scaled decode) and kept in the cache folder.
import BoothSystem
import Dispatch
import Glibc
import PhotoEncoding
import PhotoStore
import Synchronization

/// Each photo's thumbnail, made once with `JPEGThumbnail` (a scaled decode, EXIF orientation applied) on a
/// background queue of its own, and kept in the cache folder under the photo's name; removed when its photo leaves
/// the store. A thumbnail that cannot be made (a damaged photo) is an error for that request only.
public final class ThumbnailStore: Sendable {
    /// The cache folder.
    public let directory: String
    /// The photos folder.
    public let photos: String
    /// The thumbnails' long edge in pixels.
    public let longEdge: Int
    private let queue = DispatchQueue(label: "heylook.thumbnails", qos: .utility)
    /// Photos whose thumbnail could not be made (damaged): not tried again in the background, only when asked for.
    private let failed = Mutex<Set<String>>([])

    /// A store in `directory` (made if missing) for the photos in `photos`.
    public init(
        directory: String, photos: String, longEdge: Int = JPEGThumbnail.defaultLongEdge
    ) throws(SystemError) {
        self.directory = directory
        self.photos = photos
        self.longEdge = longEdge
        try PhotoStore.makeDirectories(directory)
    }

    /// The path of `name`'s thumbnail, made now if it is not there yet.
    public func thumbnail(for name: String) async throws -> String {
        let path = "\(directory)/\(name)"
        if access(path, F_OK) == 0 { return path }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async {
                do {
                    try self.make(name)
                    continuation.resume(returning: path)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The photos whose thumbnail could not be made in the background.
    var failures: Set<String> { failed.withLock { $0 } }

    /// Makes the thumbnails of `names` that are missing, one after another in the background; a photo whose
    /// thumbnail failed is not tried again until it leaves the store.
    public func prepare(_ names: [String]) {
        queue.async {
            let skip = self.failed.withLock { $0 }
            for name in names where !skip.contains(name) && access("\(self.directory)/\(name)", F_OK) != 0 {
                do {
                    try self.make(name)
                } catch {
                    _ = self.failed.withLock { $0.insert(name) }
                }
            }
        }
    }

    /// Removes the thumbnails of `names` (their photos were discarded or deleted).
    public func remove(_ names: [String]) {
        queue.async {
            for name in names { _ = unlink("\(self.directory)/\(name)") }
            self.failed.withLock { $0.subtract(names) }
        }
    }

    /// Makes one thumbnail, on the queue: read, decode scaled, encode, write under a temporary name, rename (a
    /// reader never sees half a thumbnail; the cache needs no fsync: it can always be made again).
    private func make(_ name: String) throws {
        let final = "\(directory)/\(name)"
        if access(final, F_OK) == 0 { return }
        let fd = open("\(photos)/\(name)", O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw SystemError("open", "\(photos)/\(name)", errno: errno) }
        let bytes: [UInt8]
        do {
            defer { close(fd) }
            do {
                bytes = try FileReading.readAll(fd, limit: 64 << 20)
            } catch {
                throw error.systemError(reading: "\(photos)/\(name)")
            }
        }
        let thumbnail = try JPEGThumbnail.make(from: bytes, longEdge: longEdge)
        let temporary = "\(directory)/.\(name).partial"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard out >= 0 else { throw SystemError("open", temporary, errno: errno) }
        let written = thumbnail.jpeg.withUnsafeBytes { write(out, $0.baseAddress, $0.count) }
        close(out)
        guard written == thumbnail.jpeg.count, rename(temporary, final) == 0 else {
            let failure = SystemError("write", temporary, errno: errno)
            _ = unlink(temporary)
            throw failure
        }
    }
}
