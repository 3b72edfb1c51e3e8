// PhotoCatalog: the gallery's current listing of the store, made anew when the folder changes, and who to tell.
import BoothSystem
import GalleryCore
import PhotoModel
import PhotoStore

/// The gallery's current listing of the photo store (read only: the store's index and its folder, as
/// `booth photos` reads them), made anew when the photos folder changes, and the slideshows to tell about new photos.
public actor PhotoCatalog {
    /// The photos folder.
    public nonisolated let directory: String
    /// The listing as of the last refresh.
    public private(set) var listing: GalleryListing
    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextSubscriber = 0
    private var known: Set<String>

    /// Where the clock mark is (nil: this gallery dates no undated photos).
    public nonisolated let clockMark: String?

    /// A catalog of `directory`, listed once now; undated photos are dated by the booth's dates in the index, and by
    /// the `ClockMark` at `clockMark` while there is one.
    public init(directory: String, clockMark: String? = nil) throws(SystemError) {
        self.directory = directory
        self.clockMark = clockMark
        listing = GalleryListing(try PhotoStore.inspect(directory: directory), dating: Self.dating(clockMark))
        known = Set(listing.photos.map(\.name))
    }

    /// Dating in the local time zone, by the booth's dates in the index and the mark at `path` (none when nil,
    /// missing or unreadable).
    static func dating(_ path: String?) -> PhotoDating {
        let mark = path.flatMap { try? FileReading.contents(of: $0, limit: 4096) }.flatMap {
            ClockMark.parse(String(decoding: $0, as: UTF8.self))
        }
        return PhotoDating(clock: mark) { PhotoName.DateTime(localSeconds: $0) }
    }

    /// Lists the folder again; every photo new since the last listing is told to the subscribers, newest last.
    /// Returns the names that left the listing (discarded or deleted), whose thumbnails can go.
    @discardableResult
    public func refresh() throws(SystemError) -> [String] {
        listing = GalleryListing(try PhotoStore.inspect(directory: directory), dating: Self.dating(clockMark))
        let now = Set(listing.photos.map(\.name))
        let added = listing.photos.filter { !known.contains($0.name) }.map(\.name).reversed()
        let removed = known.subtracting(now).sorted()
        known = now
        for name in added {
            for subscriber in subscribers.values { subscriber.yield(name) }
        }
        return removed
    }

    /// The names of new photos as they come, until the stream is dropped.
    public func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(16))
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    /// How many slideshows listen.
    public var subscriberCount: Int { subscribers.count }

    /// Ends every subscription (the server is stopping).
    public func finishAll() {
        for subscriber in subscribers.values { subscriber.finish() }
        subscribers = [:]
    }

    private func unsubscribe(_ id: Int) { subscribers[id] = nil }
}
