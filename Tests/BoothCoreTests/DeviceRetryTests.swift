// DeviceRetryTests: a missing or lost device's warnings, retries and logs as a value.
import BoothTime
import Testing

@testable import BoothCore

@Suite struct DeviceRetryTests {
    let t0 = Instant(nanoseconds: 1_000_000_000)

    @Test func aDeviceThatOpensAtStartNeedsNothing() {
        var retry = DeviceRetry(name: "sound", interval: .seconds(10), meanwhile: "running silent")
        #expect(retry.opened(problem: nil, at: t0).isEmpty)
        #expect(retry.problem == nil)
    }

    @Test func aMissingDeviceIsWarnedOnceRetriedAndWelcomedBack() {
        var retry = DeviceRetry(name: "sound", interval: .seconds(10), meanwhile: "running silent")
        #expect(
            retry.opened(problem: "no card", at: t0) == [
                .warn(true), .logError("sound: no card; running silent, retrying every 10 s"),
                .scheduleRetry(at: t0.advanced(by: .seconds(10))),
            ])
        let t1 = t0.advanced(by: .seconds(10))
        #expect(retry.retryDue(at: t1, busy: false) == [.open])
        // The same reason again: no new warning, no new log line, only the next attempt.
        #expect(retry.opened(problem: "no card", at: t1) == [.scheduleRetry(at: t1.advanced(by: .seconds(10)))])
        let t2 = t1.advanced(by: .seconds(10))
        #expect(retry.retryDue(at: t2, busy: false) == [.open])
        // A new reason is logged.
        #expect(
            retry.opened(problem: "card busy", at: t2) == [
                .logError("sound: card busy; running silent, retrying every 10 s"),
                .scheduleRetry(at: t2.advanced(by: .seconds(10))),
            ])
        let t3 = t2.advanced(by: .seconds(10))
        #expect(retry.retryDue(at: t3, busy: false) == [.open])
        #expect(retry.opened(problem: nil, at: t3) == [.logInfo("sound is back"), .warn(false)])
        #expect(retry.problem == nil && !retry.retryArmed)
    }

    @Test func aBusyDeviceWaitsForTheNextInterval() {
        var retry = DeviceRetry(name: "sound", interval: .seconds(10))
        _ = retry.opened(problem: "gone", at: t0)
        let t1 = t0.advanced(by: .seconds(10))
        #expect(retry.retryDue(at: t1, busy: true) == [.scheduleRetry(at: t1.advanced(by: .seconds(10)))])
    }

    @Test func aDeviceLostInUseIsLikeOneMissingAndOnlyOnce() {
        var retry = DeviceRetry(name: "camera", interval: .seconds(2))
        _ = retry.opened(problem: nil, at: t0)
        #expect(
            retry.lost("unplugged", at: t0) == [
                .warn(true), .logError("camera: unplugged; retrying every 2 s"),
                .scheduleRetry(at: t0.advanced(by: .seconds(2))),
            ])
        #expect(retry.lost("unplugged again", at: t0).isEmpty, "already missing: one timer, one warning")
    }

    @Test func aStrayTimerAfterTheDeviceCameBackDoesNothing() {
        var retry = DeviceRetry(name: "camera", interval: .seconds(2))
        _ = retry.opened(problem: "none", at: t0)
        _ = retry.opened(problem: nil, at: t0)
        #expect(retry.retryDue(at: t0.advanced(by: .seconds(2)), busy: false).isEmpty)
    }
}

@Suite struct DeviceRetryMessageTests {
    /// A reason that ends a sentence (the shims' fixes do) is joined without ".;".
    @Test func aReasonEndingInAFullStopIsJoinedCleanly() {
        var retry = DeviceRetry(name: "camera", interval: .seconds(2), meanwhile: nil)
        let t0 = Instant(nanoseconds: 1_000_000_000)
        #expect(
            retry.opened(problem: "no camera: check `rpicam-hello --list-cameras`.", at: t0) == [
                .warn(true), .logError("camera: no camera: check `rpicam-hello --list-cameras`; retrying every 2 s"),
                .scheduleRetry(at: t0.advanced(by: .seconds(2))),
            ])
    }
}
