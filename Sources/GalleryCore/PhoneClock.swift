// PhoneClock: whether a signed-in phone's time may set the booth's clock (a Pi has no battery clock).

/// Whether a signed-in phone's time may set the system clock. Only while the clock is unsynchronised (no network
/// time), only forwards (a phone can never move the booth's clock back, so no photo's date goes back either), only
/// once per boot (the mark says so), and only a time a phone could really have.
public enum PhoneClock {
    /// What to do with a phone's time.
    public enum Decision: Equatable, Sendable {
        /// Set the clock to this time (microseconds since 1970, UTC).
        case set(microseconds: Int64)
        /// Network time keeps the clock: nothing to do.
        case synchronised
        /// A phone set it already this boot.
        case alreadySet
        /// The phone's time is not later than the booth's (never backwards).
        case notLater
        /// Not a time a phone has (before 2024 or after 2100): a broken or hostile request.
        case implausible
    }

    /// 2024-01-01 00:00:00 UTC and 2100-01-01 00:00:00 UTC, in microseconds.
    static let earliest: Int64 = 1_704_067_200_000_000
    static let latest: Int64 = 4_102_444_800_000_000

    /// The decision for a phone whose clock reads `phone` while the booth's reads `booth` (microseconds since 1970).
    public static func decide(phone: Int64, booth: Int64, synchronised: Bool, alreadySet: Bool) -> Decision {
        guard (earliest..<latest).contains(phone) else { return .implausible }
        if synchronised { return .synchronised }
        if alreadySet { return .alreadySet }
        guard phone > booth else { return .notLater }
        return .set(microseconds: phone)
    }

    /// The phone's time in a request body `t=MILLISECONDS` (JavaScript's `Date.now()`), in microseconds; nil
    /// when the body is anything else.
    public static func phoneTime(body: String) -> Int64? {
        guard body.hasPrefix("t="), let milliseconds = Int64(body.dropFirst(2)),
            milliseconds > 0, milliseconds < Int64.max / 1000
        else { return nil }
        return milliseconds * 1000
    }

    /// One word for the answer to the phone (and the gallery's log).
    public static func word(_ decision: Decision) -> String {
        switch decision {
        case .set: "set"
        case .synchronised: "synchronised"
        case .alreadySet: "already set"
        case .notLater: "not later"
        case .implausible: "implausible"
        }
    }
}
