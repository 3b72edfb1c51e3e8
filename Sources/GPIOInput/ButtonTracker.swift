// ButtonTracker: software debounce and long-press detection on kernel edge timestamps.
import BoothTime

/// Debounces one button from its edges without ever delaying a press, and detects long presses.
///
/// Rules, all on the edges' kernel timestamps as instants (the tracker never reads a clock):
/// - An edge that changes the reported state outside a bounce window is reported at once, with
///   its own timestamp, and opens a bounce window of `debounce`.
/// - Edges inside the window are not reported; only the latest level is remembered.
/// - When the window ends with that level different from the reported state, the change is
///   reported then (timestamped with the last edge's time, which lies inside the window), and a
///   new window opens at the window's end. So the reported state always ends equal to the line.
/// - A press held for `longPress` reports `longPressed` once, while still held.
///
/// Edges can be lost (the kernel keeps a line's edges in a small buffer: 16 on the v1 uAPI) or
/// delivered late (timestamped when they happened, queued by a kernel thread that a busy machine runs
/// late), so the edges read so far may show the wrong level. The owner therefore reads the line's
/// level after each batch and before a bounce window is judged, and hands it to `levelRead(_:at:)`:
/// the level read is what the line is, an edge older than it is already in it (ignored when it comes).
///
/// The owner calls `edge(level:at:)` for each kernel edge and, when `nextDeadline` is not nil,
/// arms a timer for it and calls `advance(to:)` with the current time (the kernel's clock) when it
/// fires. `edge` first catches up on deadlines before its timestamp, so a late timer loses nothing.
public struct ButtonTracker: Sendable {
    /// Bounce window after an accepted change.
    public let debounce: Duration
    /// Hold time that makes a long press.
    public let longPress: Duration

    /// The debounced state.
    private enum State: Equatable, Sendable {
        /// Reported released.
        case released
        /// Reported pressed at `since`; `longPressReported` once `longPressed` went out.
        case pressed(since: Instant, longPressReported: Bool)
    }

    private var state: State = .released
    /// End of the bounce window opened by the last accepted change; nil when none is open.
    private var windowEnd: Instant?
    /// The level of the latest edge and its time.
    private var lastLevel = false
    private var lastEdgeAt = Instant(nanoseconds: 0)
    /// When the line's level was last read: edges timestamped before it are already in that level.
    private var levelKnownAt = Instant(nanoseconds: 0)

    /// Creates a tracker for a released button.
    /// - Parameters:
    ///   - debounce: bounce window after each reported change (default 10 ms).
    ///   - longPress: hold time for `longPressed` (default 1 s); must exceed `debounce`.
    public init(debounce: Duration = .milliseconds(10), longPress: Duration = .seconds(1)) {
        precondition(debounce >= .zero, "durations must not be negative")
        self.debounce = debounce
        self.longPress = longPress
        precondition(longPress > debounce, "long press must exceed debounce")
    }

    /// True while the button is reported pressed.
    public var isPressed: Bool {
        if case .pressed = state { true } else { false }
    }

    /// When the owner must call `advance(to:)` next: the end of a bounce window whose level
    /// differs from the reported state, or the long-press time. Nil when nothing is pending.
    public var nextDeadline: Instant? {
        var deadline: Instant?
        if let windowEnd, lastLevel != isPressed {
            deadline = windowEnd
        }
        if case .pressed(let since, false) = state {
            let longPressAt = since.advanced(by: longPress)
            deadline = min(deadline ?? longPressAt, longPressAt)
        }
        return deadline
    }

    /// Feeds one kernel edge: `level` is the logical level after it (true = pressed).
    /// Returns the signals due, oldest first.
    public mutating func edge(level: Bool, at time: Instant) -> [ButtonSignal] {
        // Delivered after a level read that came later: that level already holds it.
        guard time >= levelKnownAt else { return [] }
        var signals = advance(to: time)
        lastLevel = level
        lastEdgeAt = time
        if let windowEnd, time < windowEnd {
            return signals
        }
        windowEnd = nil
        if level != isPressed {
            signals += accept(level, at: time, windowFrom: time)
        }
        return signals
    }

    /// The line's level, read (at `time`, CLOCK_MONOTONIC) after a batch of edges. Where it is not the
    /// last edge's level, edges after that one were lost: the line has been at `level` since then as far
    /// as anyone can know, so `level` takes the last edge's place before any deadline runs (a window
    /// that ended while the reader was late then sees the level the line really settled at). A change
    /// none of whose edges arrived, outside any window, is reported at `time`. Returns the signals due,
    /// oldest first.
    public mutating func levelRead(_ level: Bool, at time: Instant) -> [ButtonSignal] {
        levelKnownAt = max(levelKnownAt, time)
        guard level != lastLevel else { return advance(to: time) }
        guard windowEnd != nil else { return edge(level: level, at: max(time, lastEdgeAt)) }
        lastLevel = level
        return advance(to: time)
    }

    /// Runs every deadline up to and including `now`. Returns the signals due, oldest first.
    public mutating func advance(to now: Instant) -> [ButtonSignal] {
        var signals: [ButtonSignal] = []
        while let deadline = nextDeadline, deadline <= now {
            if let windowEnd, windowEnd == deadline, lastLevel != isPressed {
                self.windowEnd = nil
                signals += accept(lastLevel, at: lastEdgeAt, windowFrom: windowEnd)
            } else if case .pressed(let since, false) = state {
                state = .pressed(since: since, longPressReported: true)
                signals.append(.longPressed(at: deadline))
            } else {
                preconditionFailure("deadline \(deadline) with nothing due in \(state)")
            }
        }
        if let windowEnd, windowEnd <= now {
            self.windowEnd = nil
        }
        return signals
    }

    /// Reports a change to `level` that happened at `time` and opens a bounce window at `start`.
    private mutating func accept(_ level: Bool, at time: Instant, windowFrom start: Instant) -> [ButtonSignal] {
        windowEnd = start.advanced(by: debounce)
        switch state {
        case .released:
            precondition(level, "accepting a release while released")
            state = .pressed(since: time, longPressReported: false)
            return [.pressed(at: time)]
        case .pressed(let since, _):
            precondition(!level, "accepting a press while pressed")
            state = .released
            return [.released(at: time, held: max(time.since(since), .zero))]
        }
    }
}
