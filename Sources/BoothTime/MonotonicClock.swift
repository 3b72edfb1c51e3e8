// MonotonicClock: where code that must know the time reads it (the kernel's clock, the loop's, a test's).

/// A source of monotonic instants. The booth's one real clock is `KernelClock` (BoothSystem, the kernel's
/// CLOCK_MONOTONIC, the clock of GPIO edge, ALSA and libcamera timestamps); an event loop's clock adds the idle
/// time a virtual loop skipped; `ManualClock` is set by hand in tests. Code that measures or timestamps takes one
/// of these instead of reading the kernel itself.
public protocol MonotonicClock: AnyObject {
    /// Now.
    func now() -> Instant
}
