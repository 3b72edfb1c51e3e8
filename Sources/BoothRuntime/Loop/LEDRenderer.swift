// LEDRenderer: plays an `LEDPattern` on the lights.
import BoothCore
import BoothTime
import LEDCountdown

/// Plays an `LEDPattern` on the lights: computes the frame from the pattern's start time, writes the
/// lights only when the frame changes, and schedules the next possible change on the loop's timer
/// (absolute deadlines, so the flashes keep step with the countdown's own deadline).
final class LEDRenderer {
    private let loop: EventLoop
    private let lights: any LightsDevice
    private let log: EventsLog
    private var pattern: LEDPattern = .off
    private var since = Instant(nanoseconds: 0)
    private var shown: LEDFrame?
    private var pending: EventLoop.TimerToken?

    init(loop: EventLoop, lights: any LightsDevice, log: EventsLog) {
        self.loop = loop
        self.lights = lights
        self.log = log
    }

    /// Starts `pattern` with its time counted from `since`.
    func show(_ pattern: LEDPattern, since: Instant) {
        self.pattern = pattern
        self.since = since
        if let pending { loop.cancel(pending) }
        pending = nil
        // The pattern's first frame was due when the pattern started (the event that caused it).
        render(at: loop.now(), scheduled: since)
    }

    /// Writes the frame due at `now`; `scheduled` is when the change was due (the events output
    /// carries both, so timing error can be measured).
    private func render(at now: Instant, scheduled: Instant) {
        let elapsed = max(now, scheduled).since(since)
        let frame = pattern.frame(at: elapsed, ledCount: lights.ledCount)
        if frame != shown {
            lights.showRow(frame)
            shown = frame
            log.record(
                "leds", at: now,
                [
                    ("bits", .int(Int64(frame.bits))), ("leds", .string(frame.rendered(count: lights.ledCount))),
                    ("scheduled_us", .int(scheduled.microseconds)),
                ])
        }
        guard let next = pattern.nextChange(after: elapsed, ledCount: lights.ledCount) else { return }
        let deadline = since.advanced(by: next)
        pending = loop.schedule(at: deadline) { [unowned self] in
            self.pending = nil
            self.render(at: loop.now(), scheduled: deadline)
        }
    }
}
