// Instant: a point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds.
/// A point on the monotonic clock (CLOCK_MONOTONIC), in nanoseconds. Durations are `Int64` nanoseconds
/// (`.milliseconds(250)`, `.seconds(1.5)`). Pure logic never reads a clock: every instant comes in with an
/// event, or from a `MonotonicClock`.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since an arbitrary origin (the kernel's boot time on Linux).
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `seconds` after the origin (tests and scripts).
    public static func seconds(_ seconds: Double) -> Instant {
        Instant(nanoseconds: Int64((seconds * 1e9).rounded()))
    }

    /// Microseconds since the origin, as the events output writes them.
    public var microseconds: Int64 { nanoseconds / 1000 }

    /// This instant moved by `nanoseconds`.
    public func advanced(by nanoseconds: Int64) -> Instant {
        Instant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// Nanoseconds from `earlier` to this instant.
    public func since(_ earlier: Instant) -> Int64 {
        nanoseconds - earlier.nanoseconds
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `instant` moved later by `nanoseconds`.
    public static func + (instant: Instant, nanoseconds: Int64) -> Instant { instant.advanced(by: nanoseconds) }

    /// `instant` moved earlier by `nanoseconds`.
    public static func - (instant: Instant, nanoseconds: Int64) -> Instant { instant.advanced(by: -nanoseconds) }

    /// Nanoseconds from `earlier` to `later`.
    public static func - (later: Instant, earlier: Instant) -> Int64 { later.since(earlier) }

    public var description: String { "\(microseconds)µs" }
}

/// Durations in nanoseconds.
extension Int64 {
    /// `n` milliseconds in nanoseconds.
    public static func milliseconds(_ n: Int64) -> Int64 { n * 1_000_000 }
    /// `s` seconds in nanoseconds.
    public static func seconds(_ s: Double) -> Int64 { Int64((s * 1e9).rounded()) }
    /// A Swift `Duration` in nanoseconds (rounded toward zero below a nanosecond).
    public static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
