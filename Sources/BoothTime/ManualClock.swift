// ManualClock: a clock that moves only when a test moves it.

/// A `MonotonicClock` for tests: `now()` is whatever the test set, so what a component measures is exact.
public final class ManualClock: MonotonicClock {
    /// The time `now()` returns.
    public var current: Instant

    /// A clock standing at `start`.
    public init(at start: Instant = Instant(nanoseconds: 0)) {
        current = start
    }

    /// Now: `current`.
    public func now() -> Instant { current }

    /// Moves the clock on by `duration` (never back).
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a monotonic clock never goes back")
        current = current.advanced(by: duration)
    }
}
