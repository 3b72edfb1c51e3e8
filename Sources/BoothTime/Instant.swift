// Instant: a point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds.
/// A point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds. Every span of time is a Swift `Duration`
/// (`.milliseconds(250)`, `.seconds(1.5)`), held to the nanosecond when it moves an instant. Pure logic never reads
/// a clock: every instant comes in with an event, or from a `MonotonicClock`.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin (the kernel's boot time on Linux).
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `seconds` after the origin (tests and scripts).
    public static func seconds(_ seconds: Double) -> Instant {
        Instant(nanoseconds: 0) + .seconds(toTheNanosecond: seconds)
    }

    /// Microseconds since the origin, as the events output writes them.
    public var microseconds: Int64 { nanoseconds / 1000 }

    /// This instant moved by `duration` (to the nearest nanosecond).
    public func advanced(by duration: Duration) -> Instant {
        Instant(nanoseconds: nanoseconds + duration.inNanoseconds)
    }

    /// The time from `earlier` to this instant.
    public func since(_ earlier: Instant) -> Duration {
        .nanoseconds(nanoseconds - earlier.nanoseconds)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `instant` moved later by `duration`.
    public static func + (instant: Instant, duration: Duration) -> Instant { instant.advanced(by: duration) }

    /// `instant` moved earlier by `duration`.
    public static func - (instant: Instant, duration: Duration) -> Instant { instant.advanced(by: .zero - duration) }

    /// The time from `earlier` to `later`.
    public static func - (later: Instant, earlier: Instant) -> Duration { later.since(earlier) }

    public var description: String { "\(microseconds)µs" }
}
