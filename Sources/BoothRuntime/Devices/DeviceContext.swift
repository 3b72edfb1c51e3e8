// DeviceContext: what a device is built with: the loop it runs on and where it reports.
import BoothCore
import BoothTime

/// What a device is built with: the loop it runs on, where it reports events and where a camera delivers frames.
/// A device registers its descriptors and timers while it is made, so it is whole from the start: a problem it
/// meets while opening is reported at once (the booth's `EventInbox` holds it until the controller takes it).
package struct DeviceContext {
    /// The booth's one event loop.
    let loop: EventLoop
    /// Where the device's events go, with the monotonic instant each happened at.
    let report: DeviceReport
    /// Where a camera delivers its frames (whoever takes one releases it).
    let frames: (CaptureID, any PhotoFrame) -> Void
    /// Where an input that is one of several of its kind (a remote) reports, naming itself for the events log.
    let reportFrom: (BoothEvent, Instant, String) -> Void

    /// A context reporting to `report`; frames that nobody takes are released at once.
    init(
        loop: EventLoop, report: @escaping DeviceReport,
        frames: @escaping (CaptureID, any PhotoFrame) -> Void = { _, frame in frame.release() }
    ) {
        self.loop = loop
        self.report = report
        self.frames = frames
        reportFrom = { event, time, _ in report(event, time) }
    }

    /// A context reporting to the booth's controller through `inbox`.
    package init(loop: EventLoop, inbox: EventInbox) {
        self.loop = loop
        report = { event, time in inbox.post(event, at: time) }
        frames = inbox.deliver
        reportFrom = { event, time, source in inbox.post(event, at: time, from: source) }
    }

    /// Reports `event` as happening now, on the loop's clock.
    func reportNow(_ event: BoothEvent) {
        report(event, loop.now())
    }
}
