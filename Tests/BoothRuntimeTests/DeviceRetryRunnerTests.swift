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
                entries.append("\(at.since(start) / 1_000_000_000)s \(warning) \(active)")
            }, label: { "default" },
            reopen: {
                attempts += 1
                entries.append("\(loop.now().since(start) / 1_000_000_000)s reopen")
                return attempts < 2 ? "still missing" : nil
            })
        runner.opened(problem: "no card")
        loop.schedule(at: start.advanced(by: .seconds(35))) { loop.stop() }
        try loop.run()
        #expect(
            entries == [
                "0s soundDeviceUnavailable true", "10s reopen", "20s reopen", "20s soundDeviceUnavailable false",
            ])
    }

    @Test func aBusyDeviceWaitsForTheNextIntervalAndALostOneIsRetried() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        let start = loop.now()
        var reopens: [Int64] = []
        var busy = true
        var warnings: [Bool] = []
        let runner = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: loop,
            report: { event, _ in
                if case .deviceWarning(_, let active) = event { warnings.append(active) }
            }, label: { "libcamera:vimc" }, busy: { busy },
            reopen: {
                reopens.append(loop.now().since(start) / 1_000_000_000)
                return nil
            })
        runner.opened(problem: nil)
        #expect(warnings.isEmpty, "an open device warns of nothing")
        loop.schedule(at: start.advanced(by: .seconds(1))) { runner.lost("gone") }
        loop.schedule(at: start.advanced(by: .seconds(4))) { busy = false }
        loop.schedule(at: start.advanced(by: .seconds(10))) { loop.stop() }
        try loop.run()
        // Lost at 1 s: retried at 3 s (busy: waits), at 5 s opened.
        #expect(reopens == [5])
        #expect(warnings == [true, false])
    }
}
