// LibcameraDeviceTests: the camera device's start and retries, with the opening of libcamera's camera failing.
import BoothCore
import BoothTime
import CameraCapture
import Glibc
import Testing

@testable import BoothRuntime

/// The camera device made whole on its loop: a camera that does not open at start is reported at once (its warning,
/// and for ESTALE the restart only a new process can do), and retried every 2 s.
@Suite(.timeLimit(.minutes(3))) struct LibcameraDeviceTests {
    /// libcamera holding a camera that vanished unseen (ESTALE) while the device is made: the restart is reported
    /// then, not lost for want of a loop.
    @Test func aStaleCameraAtStartAsksForARestart() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        var events: [BoothEvent] = []
        let camera = LibcameraDevice(
            DeviceContext(loop: loop) { event, _ in events.append(event) }, selector: "imx708", width: 0, height: 0,
            idleFPS: 0
        ) { selector, _, _ throws(CameraError) in
            throw .failed(camera: selector, operation: "acquire", errno: ESTALE, detail: "stale")
        }
        #expect(events == [.shutdownRequested(.restart), .deviceWarning(.cameraUnavailable, active: true)])
        #expect(camera.problem?.contains("acquire") == true)
        #expect(camera.name == "libcamera:imx708 (not open)")
    }

    /// A camera missing at start is warned about once and tried again every 2 s; a retry that meets ESTALE asks
    /// for the restart too.
    @Test func aMissingCameraIsRetriedAndAStaleOneOnRetryRestarts() throws {
        let loop = try EventLoop(clock: LoopClock(virtual: true))
        var events: [(BoothEvent, Instant)] = []
        var attempts: [Instant] = []
        let camera = LibcameraDevice(
            DeviceContext(loop: loop) { event, time in
                events.append((event, time))
                if case .shutdownRequested = event { loop.stop() }
            }, selector: "imx708", width: 0, height: 0, idleFPS: 0
        ) { selector, _, _ throws(CameraError) in
            attempts.append(loop.now())
            if attempts.count < 3 { throw .noCamera(selector: selector, available: []) }
            throw .failed(camera: selector, operation: "acquire", errno: ESTALE, detail: "stale")
        }
        let start = loop.now()
        loop.schedule(at: start.advanced(by: .seconds(30))) { loop.stop() }
        try loop.run()
        // Virtual time jumps over the waits; only the moments between them run in real time.
        let gaps = zip(attempts.dropFirst(), attempts).map { $0.since($1) }
        #expect(gaps.count == 2 && gaps.allSatisfy { $0 >= .seconds(2) && $0 < .milliseconds(2500) }, "\(gaps)")
        #expect(start.since(attempts[0]) >= .zero)
        #expect(
            events.map(\.0) == [.deviceWarning(.cameraUnavailable, active: true), .shutdownRequested(.restart)])
        #expect(camera.problem?.contains("acquire") == true)
    }
}
