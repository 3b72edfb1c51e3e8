// ButtonSignal: what a debounced button reports to its owner.

/// A debounced button event. Times are kernel CLOCK_MONOTONIC nanoseconds.
public enum ButtonSignal: Equatable, Hashable, Sendable {
    /// The button went down at `at` (the time of the edge that made it so).
    case pressed(at: UInt64)
    /// The button came up at `at`, after being down for `heldNanoseconds`.
    case released(at: UInt64, heldNanoseconds: UInt64)
    /// The button has been held for the long-press duration; `at` is press time plus that
    /// duration. Fires once per press, while the button is still down; `released` still follows.
    case longPressed(at: UInt64)
}
