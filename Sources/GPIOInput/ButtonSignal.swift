// ButtonSignal: what a debounced button reports to its owner.
import BoothTime

/// A debounced button event. Times are instants on the kernel's clock (CLOCK_MONOTONIC).
public enum ButtonSignal: Equatable, Hashable, Sendable {
    /// The button went down at `at` (the time of the edge that made it so).
    case pressed(at: Instant)
    /// The button came up at `at`, after being down for `held`.
    case released(at: Instant, held: Duration)
    /// The button has been held for the long-press duration; `at` is press time plus that
    /// duration. Fires once per press, while the button is still down; `released` still follows.
    case longPressed(at: Instant)
}
