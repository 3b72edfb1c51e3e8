// GalleryListing: the kept photos newest first, grouped by day, in pages, with each photo's neighbours.
import PhotoModel

/// The kept photos newest first, grouped by day (undated photos in a group of their own, after the dated days),
/// cut into pages of `pageSize`, with each photo's previous and next. Made anew from the store's entries whenever
/// the photos folder changes; lookups by name are the only way a URL reaches a photo.
public struct GalleryListing: Sendable {
    /// One day's photos on a page.
    public struct Group: Hashable, Sendable {
        /// The day (`2026-11-22`), or nil for the undated photos.
        public var day: String?
        public var photos: [GalleryPhoto]
    }

    /// Every kept photo, newest first.
    public let photos: [GalleryPhoto]
    private let positions: [String: Int]

    /// The listing of `entries` (the store's index: kept photos are shown, retakes never), undated photos dated by
    /// `dating` where it can.
    public init(_ entries: [PhotoIndex.Entry], dating: PhotoDating? = nil) {
        // Dated photos newest first; the undated ones after them, newest first too (their date is unknown, so they
        // cannot be placed among the days).
        photos = entries.compactMap { GalleryPhoto($0, dating: dating) }.sorted { a, b in
            if (a.day == nil) != (b.day == nil) { return a.day != nil }
            return a.sequence > b.sequence
        }
        positions = Dictionary(uniqueKeysWithValues: photos.enumerated().map { ($1.name, $0) })
    }

    /// The photo named `name`, or nil when the store has no kept photo of that name.
    public func photo(named name: String) -> GalleryPhoto? { positions[name].map { photos[$0] } }

    /// The photos before (newer) and after (older) `name` in the listing's order.
    public func neighbours(of name: String) -> (newer: GalleryPhoto?, older: GalleryPhoto?) {
        guard let i = positions[name] else { return (nil, nil) }
        return (i > 0 ? photos[i - 1] : nil, i + 1 < photos.count ? photos[i + 1] : nil)
    }

    /// How many pages of `pageSize` there are (at least one, which may be empty).
    public func pageCount(pageSize: Int) -> Int { max(1, (photos.count + pageSize - 1) / pageSize) }

    /// Page `page` (from 1) of `pageSize` photos, grouped by day in order; an out-of-range page is empty.
    public func page(_ page: Int, pageSize: Int) -> [Group] {
        let start = (page - 1) * pageSize
        guard page >= 1, pageSize >= 1, start < photos.count else { return [] }
        var groups: [Group] = []
        for photo in photos[start..<min(start + pageSize, photos.count)] {
            if let last = groups.last, last.day == photo.day {
                groups[groups.count - 1].photos.append(photo)
            } else {
                groups.append(Group(day: photo.day, photos: [photo]))
            }
        }
        return groups
    }

    /// Every day with photos, in the listing's order (nil: the undated ones), for "download a day".
    public var days: [String?] {
        var seen: [String?] = []
        for photo in photos where seen.last.map({ $0 != photo.day }) ?? true { seen.append(photo.day) }
        return seen
    }

    /// The photos of `day` (nil: the undated ones), oldest first, as a ZIP lists them.
    public func photos(onDay day: String?) -> [GalleryPhoto] { photos.filter { $0.day == day }.reversed() }
}
