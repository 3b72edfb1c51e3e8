// ClockMark: what `booth gallery` leaves when it set the system clock from a phone, so the booth dates photos.

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

    /// A mark.
    public init(setTo: Int64, was: Int64, phone: String) {
        (self.setTo, self.was, self.phone) = (setTo, was, phone)
    }

    /// The file's text.
    public var text: String {
        "set_to \(setTo)\nwas \(was)\nphone \(phone)\n"
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
        return ClockMark(setTo: setTo, was: was, phone: phone)
    }
}
