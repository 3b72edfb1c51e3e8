// ClockMark: what `booth gallery` leaves when it set the system clock from a phone, so the booth dates photos.
import BoothTime

/// The mark `booth gallery` leaves when it set the system clock from a signed-in phone's time, in its runtime
/// folder: kept while the gallery restarts (`RuntimeDirectoryPreserve=yes`), gone at the next boot (`/run` is
/// memory). The kernel still calls such a clock unsynchronised (only network time clears that), so while the mark
/// is there the booth trusts its clock. File: one `key value` per line.
public struct ClockMark: Equatable, Sendable {
    /// Where the installed gallery writes it (`RuntimeDirectory=heylook-gallery`) and the booth reads it.
    public static let path = "/run/heylook-gallery/clock"

    /// The time the clock was set to, in seconds since 1970 (UTC).
    public var setTo: Int64
    /// What the clock said just before, in seconds since 1970 (UTC).
    public var was: Int64
    /// The phone's address, as the gallery saw it.
    public var phone: String
    /// The moment of `was` on the boot's monotonic clock: what dates the photos taken undated earlier in the same
    /// boot. Nil in a mark that lacks it (one written by 0.8.0).
    public var at: BootInstant?

    /// A mark.
    public init(setTo: Int64, was: Int64, phone: String, at: BootInstant? = nil) {
        (self.setTo, self.was, self.phone, self.at) = (setTo, was, phone, at)
    }

    /// The file's text.
    public var text: String {
        "set_to \(setTo)\nwas \(was)\nphone \(phone)\n" + (at.map { "at \($0)\n" } ?? "")
    }

    /// When a photo taken undated at `taken` was really taken, in seconds since 1970 (UTC): the clock's new time
    /// moved back by the monotonic time between the photo and the setting (which setting the clock does not
    /// change). Nil for a moment of another boot, or when the mark has no moment of its own.
    public func seconds(of taken: BootInstant) -> Int64? {
        guard let at, at.boot == taken.boot else { return nil }
        // Whole seconds towards the past, so a photo 0.4 s before the setting is a second earlier, not the same one
        // (a duration's parts share its sign: -0.4 s is 0 s and -0.4e18 as).
        let (seconds, attoseconds) = taken.instant.since(at.instant).components
        return setTo + seconds - (attoseconds < 0 ? 1 : 0)
    }

    /// The mark in a file's text, or nil when a field is missing or unreadable.
    public static func parse(_ text: String) -> ClockMark? {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            guard let space = line.firstIndex(of: " ") else { continue }
            fields[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        guard let setTo = fields["set_to"].flatMap({ Int64($0) }),
            let was = fields["was"].flatMap({ Int64($0) }), let phone = fields["phone"]
        else { return nil }
        var at: BootInstant?
        if let text = fields["at"] {
            guard let moment = BootInstant.parse(Substring(text)) else { return nil }
            at = moment
        }
        return ClockMark(setTo: setTo, was: was, phone: phone, at: at)
    }
}
