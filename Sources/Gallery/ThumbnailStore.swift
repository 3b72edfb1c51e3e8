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
        if FileAccess.exists(path) { return path }
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
            for name in names where !skip.contains(name) && !FileAccess.exists("\(self.directory)/\(name)") {
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
            for name in names { CacheFile.remove("\(self.directory)/\(name)") }
            self.failed.withLock { $0.subtract(names) }
        }
    }

    /// Makes one thumbnail, on the queue: read (a link in the photos folder is refused), decode scaled, encode, write
    /// as a `CacheFile` (a reader never sees half a thumbnail; the cache needs no fsync: it can always be made again).
    private func make(_ name: String) throws {
        let final = "\(directory)/\(name)"
        if FileAccess.exists(final) { return }
        let photo = "\(photos)/\(name)"
        let bytes: [UInt8]
        do {
            guard let read = try FileReading.contents(of: photo, limit: 64 << 20, followingLinks: false) else {
                throw SystemError("open", photo, errno: Errno.noSuchFileOrDirectory.rawValue)
            }
            bytes = read
        } catch let error as FileReading.Failure {
            throw error.systemError(reading: photo)
        }
        let thumbnail = try JPEGThumbnail.make(from: bytes, longEdge: longEdge)
        try CacheFile.write(thumbnail.jpeg, to: final)
    }
}
