// ButtonTrackerTests: presses are never delayed, bounce is absorbed, the final state is consistent,
// long presses fire exactly on time.
import BoothTime
import Testing

@testable import GPIOInput

private let ms: Duration = .milliseconds(1)
/// `n * ms`: the tests' times in milliseconds.
private func * (count: Int64, unit: Duration) -> Duration { unit * count }
private let t0 = Instant.seconds(5)  // an arbitrary CLOCK_MONOTONIC origin

extension ButtonTracker {
    /// Feeds edges given as (level, time) and returns every signal.
    fileprivate mutating func feed(_ edges: [(Bool, Instant)]) -> [ButtonSignal] {
        edges.flatMap { edge(level: $0.0, at: $0.1) }
    }
}

/// A bounce storm: alternating levels every 0.3 ms starting with `first`, ending on `last`.
private func storm(from start: Instant, first: Bool, count: Int, last: Bool) -> [(Bool, Instant)] {
    var edges = (0..<count).map { (($0 % 2 == 0) == first, start + .microseconds(300) * $0) }
    if edges.last?.0 != last {
        edges.append((last, start + .microseconds(300) * count))
    }
    return edges
}

@Suite struct ButtonTrackerTests {
    @Test("the first edge of a press is reported at once with its own timestamp")
    func pressIsImmediate() {
        var button = ButtonTracker()
        #expect(button.edge(level: true, at: t0) == [.pressed(at: t0)])
        #expect(button.isPressed)
        #expect(button.nextDeadline == t0 + 1_000 * ms)  // only the long press is pending
    }

    @Test("a bounce storm on press reports one press and nothing at the window's end")
    func bounceStormOnPress() {
        var button = ButtonTracker()
        let signals = button.feed(storm(from: t0, first: true, count: 15, last: true))
        #expect(signals == [.pressed(at: t0)])
        #expect(button.nextDeadline == t0 + 1_000 * ms)
        #expect(button.advance(to: t0 + 10 * ms) == [])
        #expect(button.isPressed)
    }

    /// Measured in the rig under load (libgpiod 1.6, 19 bounce edges, the reader 9 ms late): the kernel's
    /// 16-edge buffer overflowed, the last edges of a press were lost, and the booth reported a release
    /// 13 ms into the press. The level read after the batch puts it right.
    @Test("edges lost in an overflowing kernel buffer are made good by the level read after the batch")
    func lostEdgesAreMadeGoodByTheLevel() {
        var button = ButtonTracker(debounce: .milliseconds(20))
        // 19 edges from released to pressed; the kernel kept the first 16, which end on released.
        let kept = storm(from: t0, first: true, count: 16, last: false)
        #expect(button.feed(kept) == [.pressed(at: t0)])
        let readAt = t0 + 9 * ms
        #expect(button.levelRead(true, at: readAt).isEmpty)
        #expect(button.advance(to: t0 + 100 * ms).isEmpty, "no release: the button is held")
        #expect(button.isPressed)
        // Without the level read, the window's end reports the release that never happened.
        var unaware = ButtonTracker(debounce: .milliseconds(20))
        _ = unaware.feed(kept)
        #expect(unaware.advance(to: t0 + 100 * ms) == [.released(at: kept.last!.1, held: kept.last!.1 - t0)])
    }

    /// Measured in the rig under load (libgpiod 1.6): the reader came 33 ms after the press, after the
    /// 20 ms window had ended; the kept edges ended on released, the line was pressed. The window's end
    /// must see the level read, not the stale edge: no release, no second press.
    @Test("a level read after the window ended, with edges lost, reports no release")
    func lateLevelReadAfterTheWindow() {
        var button = ButtonTracker(debounce: .milliseconds(20))
        let kept = storm(from: t0, first: true, count: 16, last: false)
        #expect(button.feed(kept) == [.pressed(at: t0)])
        #expect(button.levelRead(true, at: t0 + 33 * ms).isEmpty)
        #expect(button.advance(to: t0 + 500 * ms).isEmpty)
        #expect(button.isPressed)
        #expect(button.nextDeadline == t0 + 1_000 * ms, "only the long press is pending")
    }

    /// Measured in the rig under load (libgpiod 2, nothing lost): the bounce's last edges were queued by
    /// the kernel after the window's timer ran. The level read when the window is judged says pressed;
    /// the late edges, older than that read, change nothing when they come.
    @Test("edges delivered after a later level read are already in it")
    func lateDeliveredEdgesAreIgnored() {
        var button = ButtonTracker(debounce: .milliseconds(50))
        let bounce = storm(from: t0, first: true, count: 19, last: true)
        #expect(button.feed(Array(bounce.prefix(4))) == [.pressed(at: t0)])  // ends on released
        // The window's timer, 66 ms late: the level read says pressed; the window closes on it.
        #expect(button.levelRead(true, at: t0 + 66 * ms).isEmpty)
        #expect(button.advance(to: t0 + 66 * ms).isEmpty)
        // The rest of the bounce arrives now, timestamped inside the old window.
        #expect(button.feed(Array(bounce.dropFirst(4))).isEmpty)
        #expect(button.advance(to: t0 + 500 * ms).isEmpty)
        #expect(button.isPressed)
        // A real release after the read is reported as usual.
        #expect(
            button.edge(level: false, at: t0 + 600 * ms) == [.released(at: t0 + 600 * ms, held: 600 * ms)])
    }

    /// A fast reader reads the level mid-bounce: whatever it sees, the edges that follow decide.
    @Test("a level read mid-bounce is overtaken by the edges that follow")
    func levelReadMidBounce() {
        var button = ButtonTracker(debounce: .milliseconds(20))
        #expect(button.edge(level: true, at: t0) == [.pressed(at: t0)])
        #expect(button.levelRead(false, at: t0 + .microseconds(100)).isEmpty)
        let rest = storm(from: t0 + .microseconds(300), first: false, count: 10, last: true)
        #expect(button.feed(rest).isEmpty)
        #expect(button.levelRead(true, at: t0 + 5 * ms).isEmpty)
        #expect(button.advance(to: t0 + 100 * ms).isEmpty)
        #expect(button.isPressed)
    }

    @Test("a level read that agrees with the last edge changes nothing")
    func agreeingLevelReadIsNothing() {
        var button = ButtonTracker(debounce: .milliseconds(20))
        _ = button.feed(storm(from: t0, first: true, count: 15, last: true))
        #expect(button.levelRead(true, at: t0 + 5 * ms).isEmpty)
        #expect(button.nextDeadline == t0 + 1_000 * ms)
        // A release whose edges were all lost while the press's window was still on the books: the level
        // read reports it (when it happened is lost with its edges: it counts from the last edge read).
        #expect(
            button.levelRead(false, at: t0 + 500 * ms) == [
                .released(at: t0 + .nanoseconds(4_200_000), held: .nanoseconds(4_200_000))
            ])
        #expect(!button.isPressed)
        // Once no window is open, a change none of whose edges came is reported at the read's time.
        #expect(button.advance(to: t0 + 600 * ms).isEmpty)
        #expect(button.levelRead(true, at: t0 + 700 * ms) == [.pressed(at: t0 + 700 * ms)])
    }

    @Test("a bounce storm on release reports one release")
    func bounceStormOnRelease() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        let release = t0 + 300 * ms
        let signals = button.feed(storm(from: release, first: false, count: 20, last: false))
        #expect(signals == [.released(at: release, held: 300 * ms)])
        #expect(button.nextDeadline == nil)
        #expect(button.advance(to: release + 50 * ms) == [])
        #expect(!button.isPressed)
    }

    @Test("a storm that ends on the other level is reported when the window closes")
    func stormEndingOtherLevel() {
        var button = ButtonTracker()
        // Pressed, bounced, and actually let go within 3 ms (a tap shorter than the window).
        let edges = storm(from: t0, first: true, count: 10, last: false)
        #expect(button.feed(edges) == [.pressed(at: t0)])
        let lastEdge = edges.last!.1
        #expect(button.nextDeadline == t0 + 10 * ms)
        #expect(button.advance(to: t0 + 10 * ms - .nanoseconds(1)) == [])
        #expect(
            button.advance(to: t0 + 10 * ms) == [.released(at: lastEdge, held: lastEdge - t0)])
        #expect(!button.isPressed)
        #expect(button.nextDeadline == nil)
    }

    @Test("a new press inside the release's bounce window is reported when the window closes")
    func pressDuringDebounceWindow() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        let release = t0 + 200 * ms
        #expect(button.edge(level: false, at: release) == [.released(at: release, held: 200 * ms)])
        let repress = release + 3 * ms
        #expect(button.edge(level: true, at: repress) == [])
        #expect(button.nextDeadline == release + 10 * ms)
        #expect(button.advance(to: release + 10 * ms) == [.pressed(at: repress)])
        // The long press counts from the press edge, not from the window's end.
        #expect(button.nextDeadline == repress + 1_000 * ms)
        #expect(button.advance(to: repress + 1_000 * ms) == [.longPressed(at: repress + 1_000 * ms)])
    }

    @Test("an edge after an unattended window still settles the window first")
    func lateEdgeSettlesWindowFirst() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        _ = button.edge(level: false, at: t0 + 2 * ms)  // inside the window, not reported yet
        // The owner missed the deadline; the next edge catches up before applying itself.
        #expect(
            button.edge(level: true, at: t0 + 50 * ms) == [
                .released(at: t0 + 2 * ms, held: 2 * ms), .pressed(at: t0 + 50 * ms),
            ])
    }

    @Test("an edge exactly at the window's end is outside it and reported at once")
    func edgeAtWindowEnd() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        #expect(button.edge(level: false, at: t0 + 10 * ms) == [.released(at: t0 + 10 * ms, held: 10 * ms)])
    }

    @Test("a repeated level (a missed opposite edge) is ignored")
    func repeatedLevel() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        #expect(button.edge(level: true, at: t0 + 100 * ms) == [])
        #expect(
            button.edge(level: false, at: t0 + 200 * ms) == [.released(at: t0 + 200 * ms, held: 200 * ms)])
        #expect(button.edge(level: false, at: t0 + 300 * ms) == [])
    }

    @Test("long press fires exactly at press + 1 s while held, once")
    func longPressExactTime() {
        var button = ButtonTracker()
        _ = button.feed(storm(from: t0, first: true, count: 7, last: true))
        #expect(button.advance(to: t0 + 1_000 * ms - .nanoseconds(1)) == [])
        #expect(button.advance(to: t0 + 1_000 * ms) == [.longPressed(at: t0 + 1_000 * ms)])
        #expect(button.nextDeadline == nil)
        #expect(button.advance(to: t0 + 5_000 * ms) == [])
        #expect(button.isPressed)
    }

    @Test("release after a long press reports the full hold time and no second long press")
    func releaseAfterLongPress() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        _ = button.advance(to: t0 + 1_000 * ms)
        let release = t0 + 1_500 * ms
        #expect(button.edge(level: false, at: release) == [.released(at: release, held: 1_500 * ms)])
        _ = button.edge(level: true, at: release + 100 * ms)
        #expect(button.nextDeadline == release + 1_100 * ms)
    }

    @Test("a release just before the long-press time cancels it")
    func releaseBeforeLongPress() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        let release = t0 + 1_000 * ms - .nanoseconds(1)
        #expect(button.edge(level: false, at: release) == [.released(at: release, held: 1_000 * ms - .nanoseconds(1))])
        #expect(button.advance(to: t0 + 2_000 * ms) == [])
    }

    @Test("a missed long-press deadline is delivered before the release that follows it")
    func lateLongPressBeforeRelease() {
        var button = ButtonTracker()
        _ = button.edge(level: true, at: t0)
        let release = t0 + 3_000 * ms
        #expect(
            button.edge(level: false, at: release) == [
                .longPressed(at: t0 + 1_000 * ms), .released(at: release, held: 3_000 * ms),
            ])
    }

    @Test("custom debounce and long-press durations")
    func customDurations() {
        var button = ButtonTracker(debounce: .milliseconds(30), longPress: .milliseconds(500))
        #expect(button.debounce == 30 * ms)
        #expect(button.longPress == 500 * ms)
        _ = button.edge(level: true, at: t0)
        #expect(button.edge(level: false, at: t0 + 20 * ms) == [])
        #expect(button.nextDeadline == t0 + 30 * ms)
        #expect(button.advance(to: t0 + 30 * ms) == [.released(at: t0 + 20 * ms, held: 20 * ms)])
    }

    @Test("continuous chatter reports at most one change per window and ends on the line's level")
    func chatterEndsConsistent() {
        var button = ButtonTracker()
        var signals: [ButtonSignal] = []
        var level = false
        var time = t0
        for _ in 0..<400 {  // 400 edges, 0.7 ms apart: 280 ms of noise
            level.toggle()
            signals += button.advance(to: time)
            signals += button.edge(level: level, at: time)
            time = time + .microseconds(700)
        }
        signals += button.advance(to: time + 1 * ms)
        signals += button.advance(to: time + 100 * ms)
        #expect(button.isPressed == level)
        let changes = signals.filter { if case .longPressed = $0 { false } else { true } }
        #expect(changes.count <= 280 / 10 + 1)
        // Reported changes alternate press, release, press...
        for (index, signal) in changes.enumerated() {
            if case .pressed = signal { #expect(index % 2 == 0) } else { #expect(index % 2 == 1) }
        }
    }
}
