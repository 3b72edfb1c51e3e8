// DeviceRetryRunnerTests: a missing device warned about, retried on the loop's timer and back, on a virtual clock.
import BoothCore
import BoothTime
import Testing

@testable import BoothRuntime

@Suite(.timeLimit(.minutes(3))) struct DeviceRetryRunnerTests {
    @Test func aMissingDeviceIsWarnedRetriedEachIntervalAndClearedWhenItOpens() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var entries: [String] = []  // what happened, in order, with seconds since the start
        var attempts = 0
        let runner = DeviceRetryRunner(
            DeviceRetry(name: "sound", interval: .seconds(10)), warning: .soundDeviceUnavailable, loop: loop,
            report: { event, at in
                guard case .deviceWarning(let warning, let active) = event else { return }
                entries.append("\(at.since(start).components.seconds)s \(warning) \(active)")
            })
        let device = Device(label: "default") {
            attempts += 1
            entries.append("\(loop.now().since(start).components.seconds)s reopen")
            return attempts < 2 ? "still missing" : nil
        }
        runner.opened(problem: "no card", of: device)
        loop.schedule(at: start.advanced(by: .seconds(35))) { loop.stop() }
        try withExtendedLifetime(device) { try loop.run() }
        #expect(
            entries == [
                "0s soundDeviceUnavailable true", "10s reopen", "20s reopen", "20s soundDeviceUnavailable false",
            ])
    }

    @Test func aBusyDeviceWaitsForTheNextIntervalAndALostOneIsRetried() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reopens: [Int64] = []
        var warnings: [Bool] = []
        let runner = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: loop,
            report: { event, _ in
                if case .deviceWarning(_, let active) = event { warnings.append(active) }
            })
        let device = Device(label: "libcamera:vimc") {
            reopens.append(loop.now().since(start).components.seconds)
            return nil
        }
        device.retryBusy = true
        runner.opened(problem: nil, of: device)
        #expect(warnings.isEmpty, "an open device warns of nothing")
        loop.schedule(at: start.advanced(by: .seconds(1))) { runner.lost("gone", of: device) }
        loop.schedule(at: start.advanced(by: .seconds(4))) { device.retryBusy = false }
        loop.schedule(at: start.advanced(by: .seconds(10))) { loop.stop() }
        try withExtendedLifetime(device) { try loop.run() }
        // Lost at 1 s: retried at 3 s (busy: waits), at 5 s opened.
        #expect(reopens == [5])
        #expect(warnings == [true, false])
    }

    /// A device stopped while its retry waits is not retried: the runner holds it weakly.
    @Test func aDeviceGoneBeforeItsRetryIsNotReopened() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reopens = 0
        let runner = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: loop,
            report: { _, _ in })
        var device: Device? = Device(label: "libcamera:vimc") {
            reopens += 1
            return "still missing"
        }
        runner.opened(problem: "no camera", of: device!)
        loop.schedule(at: start.advanced(by: .seconds(3))) { device = nil }
        loop.schedule(at: start.advanced(by: .seconds(10))) { loop.stop() }
        try loop.run()
        // Retried at 2 s; gone at 3 s, so never at 4 s, 6 s or 8 s.
        #expect(reopens == 1)
        #expect(device == nil)
    }
}

/// A device that answers its retries as the test says.
private final class Device: RetriedDevice {
    let retryLabel: String
    var retryBusy = false
    private let reopen: () -> String?

    init(label: String, reopen: @escaping () -> String?) {
        retryLabel = label
        self.reopen = reopen
    }

    func reopenForRetry() -> String? { reopen() }
}
