// LibcameraDevice: the booth's camera through libcamera.
import BoothCore
import BoothTime
import CBoothSys
import CameraCapture
import Glibc
import PhotoEncoding

/// The booth's camera through libcamera: opened at start and kept streaming (exposure and white
/// balance stay converged); a capture is the first frame exposed after the trigger. Completions
/// arrive on the shim's eventfd; Swift never runs on libcamera's threads. A missing or lost camera
/// is reported (presses are refused) and reopened every 2 s until it returns. A capture the booth
/// gives up on (the state machine owns the capture timeout) means a stalled stream: the camera is
/// closed and reopened.
final class LibcameraDevice: CameraDevice {
    private let selector: String
    private let width: Int
    private let height: Int
    private var camera: LibcameraCamera?
    private var loop: EventLoop?
    private var report: DeviceReport?
    private var deliver: ((CaptureID, any PhotoFrame) -> Void)?
    /// Missing, lost, retried every 2 s, back (from `attach`).
    private var retry: DeviceRetryRunner?
    private var registeredFD: Int32?
    /// Frames a second while idle (0: full rate always), whether the booth is idle, and the timer that
    /// gives the idle camera its next frame.
    private let idleFPS: Int
    private var idle = false
    private var idleTick: EventLoop.TimerToken?
    /// Why the camera is not open, if it is not.
    private(set) var problem: String?

    /// A camera opened now, delivering `idleFPS` frames a second while the booth is idle (0: all).
    init(selector: String, width: Int, height: Int, idleFPS: Int) {
        self.selector = selector
        self.width = width
        self.height = height
        self.idleFPS = idleFPS
        open()
    }

    var name: String { camera.map { "libcamera:\($0.id)" } ?? "libcamera:\(selector) (not open)" }
    var model: String { camera?.model ?? "unknown camera" }
    var lightLevel: Double? { camera?.latestLux }

    func attach(
        to loop: EventLoop, report: @escaping DeviceReport, frames: @escaping (CaptureID, any PhotoFrame) -> Void
    ) throws {
        self.loop = loop
        self.report = report
        self.deliver = frames
        if problem == nil { try watch() }
        let retry = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: loop,
            report: report, label: { [unowned self] in name }, reopen: { [unowned self] in reopen() })
        self.retry = retry
        retry.opened(problem: problem)
    }

    func capture(_ id: CaptureID, trigger: Instant) {
        guard let camera else {
            reportNow(.captureFailed(id, reason: problem ?? "no camera"))
            return
        }
        do {
            try camera.capture(trigger: trigger, cookie: id.cookie)
        } catch {
            reportNow(.captureFailed(id, reason: "\(error)"))
            if case .gone = error { lose("\(error)") }
        }
    }

    func setIdle(_ idle: Bool) {
        self.idle = idle && idleFPS > 0
        pace()
    }

    /// Applies the pace to the open camera: idle, one frame every 1/idleFPS s from a loop timer; else
    /// every frame.
    private func pace() {
        if let idleTick { loop?.cancel(idleTick) }
        idleTick = nil
        guard let camera, let loop else { return }
        camera.setIdle(idle)
        if idle { scheduleTick(at: loop.now().advanced(by: Int64(1_000_000_000 / idleFPS))) }
    }

    /// The idle camera's next frame at `deadline`, then every 1/idleFPS s on an absolute schedule.
    private func scheduleTick(at deadline: Instant) {
        idleTick = loop?.schedule(at: deadline) { [unowned self] in
            self.camera?.resume(count: 1)
            self.scheduleTick(at: deadline.advanced(by: Int64(1_000_000_000 / self.idleFPS)))
        }
    }

    private func drain() {
        guard let camera else { return }
        for result in camera.drainResults() {
            let id = CaptureID(cookie: result.cookie)
            switch result.outcome {
            case .success(let frame):
                deliver?(id, LibcameraFrame(frame: frame))
            case .failure(let error):
                reportNow(.captureFailed(id, reason: "\(error)"))
                switch error {
                case .gone, .timeout: lose("\(error)")
                default: break
                }
            }
        }
    }

    /// Fails every armed capture (the booth arms one at a time): their timeout results, drained at
    /// once, close the stalled camera and reopen it.
    func expire(_ id: CaptureID) {
        guard let camera, let loop else { return }
        if camera.expireCaptures(now: loop.now(), timeoutNanoseconds: 0) > 0 {
            drain()
        }
    }

    private func open() {
        do {
            camera = try LibcameraCamera(selector: selector, width: width, height: height)
            problem = nil
        } catch {
            camera = nil
            problem = "\(error)"
            if case .failed(_, _, ESTALE, _) = error {
                // libcamera cannot let go of a camera that vanished unseen: only a new process can open
                // one again, so stop and let systemd (Restart=always) start the booth afresh.
                Log.error("camera: \(error)")
                reportNow(.shutdownRequested(.restart))
            }
        }
    }

    private func watch() throws {
        guard let loop, let camera else { return }
        let fd = camera.eventFileDescriptor
        try loop.register(readable: fd) { [unowned self] in self.drain() }
        registeredFD = fd
    }

    private func lose(_ reason: String) {
        guard camera != nil else { return }
        forget()
        problem = reason
        retry?.lost(reason)
    }

    private func forget() {
        if let fd = registeredFD { loop?.unregister(fd) }
        registeredFD = nil
        camera = nil
        pace()
    }

    /// Opens the camera again and watches it: nil when it streams, else why not.
    private func reopen() -> String? {
        open()
        guard camera != nil else { return problem ?? "no camera" }
        do {
            try watch()
            pace()
            return nil
        } catch {
            forget()
            problem = "\(error)"
            return problem
        }
    }

    /// Reports `event` as happening now, on the loop's clock.
    private func reportNow(_ event: BoothEvent) {
        guard let loop else { return }
        report?(event, loop.now())
    }
}

/// A libcamera frame held for the save worker, encoded straight from its mapped planes.
struct LibcameraFrame: PhotoFrame {
    let frame: CapturedFrame

    var sensorTime: Instant { frame.sensorTime }
    var exposureMicroseconds: Int? { frame.exposureMicroseconds }
    var analogueGain: Double? { frame.analogueGain }

    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8] {
        try frame.withPixelFrame { (pixels) throws(PhotoEncodingError) in
            try JPEGEncoder.encode(pixels, options: options)
        }
    }

    func release() { frame.release() }
}
