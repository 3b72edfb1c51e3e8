// LoopClock: the event loop's time, the kernel's clock plus, on a virtual clock, the idle time skipped.
import BoothSystem
import BoothTime

/// An event loop's time: the kernel's CLOCK_MONOTONIC (`KernelClock`: the clock of GPIO edge timestamps,
/// timerfd deadlines and libcamera sensor timestamps), plus, on a virtual clock, the idle time the loop
/// skipped. Each loop has its own; the controller and the devices read time through their loop.
package final class LoopClock: MonotonicClock {
    /// True for the simulator's `--fast` runs and tests: the loop skips idle waits (`skip(to:)`).
    let isVirtual: Bool
    /// The time skipped so far; always zero on a real clock.
    private var skipped: Duration = .zero
    private let kernel: KernelClock

    /// A real clock, or a virtual one, over the kernel's clock.
    package init(virtual: Bool = false, kernel: KernelClock = KernelClock()) {
        isVirtual = virtual
        self.kernel = kernel
    }

    /// Now.
    package func now() -> Instant {
        kernel.now().advanced(by: skipped)
    }

    /// `instant` on the kernel's own clock (a timerfd deadline): the skipped time taken off.
    func kernelInstant(of instant: Instant) -> Instant {
        instant - skipped
    }

    /// Moves a virtual clock on to `deadline` (nothing when it has passed).
    func skip(to deadline: Instant) {
        precondition(isVirtual, "only a virtual clock skips time")
        let now = now()
        if deadline > now { skipped += deadline.since(now) }
    }
}
