// GalleryPhoto: one kept photo as the gallery shows it: its name (the id in every URL), size, day and time.
import PhotoModel

/// One kept photo as the gallery shows it. Its file name is its id in every URL: the server looks names up in the
/// listing it made from the store's index, never opens a path taken from a URL.
public struct GalleryPhoto: Hashable, Sendable {
    /// The file name, e.g. `HeyLook_2026-11-22_14-03-07_000042.jpg`.
    public var name: String
    /// Its size in bytes.
    public var size: Int64
    /// The day it was taken (`2026-11-22`), nil when undated.
    public var day: String?
    /// The time of day (`14:03:07`), nil when undated.
    public var time: String?
    /// The running number that orders photos, newest highest.
    public var sequence: Int
    /// The CRC-32 of its bytes, as the store recorded it at save (nil when the index was rebuilt without it).
    public var checksum: UInt32?
    /// When a photo saved undated was taken, in seconds since 1970 (UTC), known from the phone that set the clock
    /// later in the same boot (`ClockMark`); nil for a photo dated by its name, or still undated.
    public var dated: Int64?

    /// The photo of a store entry: nil for a discarded photo (a retake) or a name that is not a photo's. An undated
    /// photo takes its day and time from `dating` when that knows its moment.
    public init?(_ entry: PhotoIndex.Entry, dating: PhotoDating? = nil) {
        guard entry.state == .kept, let parsed = PhotoName(fileName: entry.name), parsed.fileName == entry.name else {
            return nil
        }
        name = entry.name
        size = entry.size
        sequence = parsed.sequence
        checksum = entry.checksum
        var dateTime = parsed.dateTime
        if dateTime == nil, let taken = entry.taken, let dating {
            // The booth's own date for it (from an earlier mark: it outlives the boot), or the mark's now.
            if let seconds = entry.dated {
                dated = seconds
                dateTime = dating.localTime(seconds)
            } else if let date = dating.date(taken) {
                dated = date.seconds
                dateTime = date.local
            }
        }
        day = dateTime?.dateString
        time = dateTime.map { $0.timeString.split(separator: "-").joined(separator: ":") }
    }
}
