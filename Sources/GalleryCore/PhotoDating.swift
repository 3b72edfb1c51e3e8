// PhotoDating: how the gallery dates photos saved undated, from the phone that set the clock later in their boot.
import PhotoModel

/// How the gallery dates the photos saved undated: the booth's date for one in the index (`PhotoIndex.Entry.dated`),
/// else the phone's `ClockMark` of this boot turns its moment into seconds since 1970; `localTime` gives the day and
/// time shown, in the booth's time zone (the caller reads the zone; this module reads nothing).
public struct PhotoDating: Sendable {
    /// The mark the gallery left when it set the clock this boot, if it did.
    public let clock: ClockMark?
    /// Seconds since 1970 (UTC) as the local date and time.
    public let localTime: @Sendable (Int64) -> PhotoName.DateTime

    /// Dating by `clock`, shown as `localTime` says.
    public init(clock: ClockMark?, localTime: @escaping @Sendable (Int64) -> PhotoName.DateTime) {
        self.clock = clock
        self.localTime = localTime
    }

    /// When a photo taken undated at `taken` was taken: seconds since 1970 and the local date and time; nil when the
    /// mark cannot say (another boot, or a mark without its moment).
    public func date(_ taken: BootInstant) -> (seconds: Int64, local: PhotoName.DateTime)? {
        clock?.seconds(of: taken).map { ($0, localTime($0)) }
    }
}
