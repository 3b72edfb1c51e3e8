// SimulatedCamera: a camera streaming test-pattern frames at a fixed rate, encoded like a real frame.
import BoothCore
import BoothTime
import PhotoEncoding

/// A camera streaming at a fixed frame rate whose photo is a test pattern with the capture time
/// drawn in, encoded by libjpeg-turbo like a real frame. Like the real camera, the photo is the first
/// frame whose exposure starts at or after the trigger.
package final class SimulatedCamera: CameraDevice {
    package let name = "simulated"
    package let model = "HeyLook simulated camera"
    private let width: Int
    private let height: Int
    private let frameInterval: Duration
    /// When true, frames never arrive (tests of the capture timeout).
    private let stalled: Bool
    /// The scene's light level the camera reports (nil: none, like a camera without that algorithm).
    package let lightLevel: Double?
    private let origin: Instant
    private let loop: EventLoop
    private let deliver: (CaptureID, any PhotoFrame) -> Void
    /// The deliveries scheduled, by capture.
    private var pending: [CaptureID: EventLoop.TimerToken] = [:]

    /// A camera streaming on `context`'s loop from now.
    package init(
        _ context: DeviceContext, width: Int = 1280, height: Int = 960, framesPerSecond: Int = 30,
        stalled: Bool = false, lightLevel: Double? = 300
    ) {
        self.width = width
        self.height = height
        self.lightLevel = lightLevel
        self.frameInterval = .seconds(1) / framesPerSecond
        self.stalled = stalled
        loop = context.loop
        deliver = context.frames
        origin = loop.now()
    }

    package func capture(_ id: CaptureID, trigger: Instant) {
        guard !stalled else { return }
        // The first frame boundary at or after the trigger; it is delivered when fully exposed and read out.
        let interval = frameInterval.inNanoseconds
        let sinceOrigin = max(0, trigger.since(origin).inNanoseconds)
        let index = (sinceOrigin + interval - 1) / interval
        let exposureStart = origin.advanced(by: frameInterval * index)
        let frame = SimulatedFrame(
            sensorTime: exposureStart, width: width, height: height, text: WallClock.timeOfDayWithMilliseconds())
        pending[id] = loop.schedule(at: exposureStart.advanced(by: frameInterval)) { [unowned self] in
            pending[id] = nil
            self.deliver(id, frame)
        }
    }

    package func expire(_ id: CaptureID) {
        if let token = pending.removeValue(forKey: id) { loop.cancel(token) }
    }

    /// Every pace the booth asked for, in order (a simulated camera has no frame rate; tests read it).
    private(set) var paces: [Bool] = []

    package func setIdle(_ idle: Bool) {
        paces.append(idle)
    }

    /// How many times the booth asked for focus (tests read it).
    private(set) var focusRequests = 0

    package func focus() {
        focusRequests += 1
    }

    /// Nothing to put back.
    package func stop() {}
}

/// The simulated camera's frame: rendered and encoded on the save worker.
struct SimulatedFrame: PhotoFrame {
    let sensorTime: Instant
    let width: Int
    let height: Int
    let text: String
    var exposureTime: Duration? { .milliseconds(33) }
    var analogueGain: Double? { 1.0 }

    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8] {
        try JPEGEncoder.encode(TestPattern.render(width: width, height: height, text: text), options: options)
    }

    func release() {}
}
