// LibcameraDevice: the booth's camera through libcamera.
import BoothCore
import BoothSystem
import BoothTime
import CameraCapture
import PhotoEncoding

/// The booth's camera through libcamera: opened at start and kept streaming (exposure and white
/// balance stay converged); a capture is the first frame exposed after the trigger. Completions
/// arrive on the shim's eventfd; Swift never runs on libcamera's threads. A missing or lost camera
/// is reported (presses are refused) and reopened every 2 s until it returns. A capture the booth
/// gives up on (the state machine owns the capture timeout) means a stalled stream: the camera is
/// closed and reopened.
package final class LibcameraDevice: CameraDevice {
    /// Opens a camera: `LibcameraCamera` itself, or (tests) a failure.
    package typealias Opener = (_ selector: String, _ width: Int, _ height: Int) throws(CameraError) -> LibcameraCamera

    /// Where the camera is in its life.
    private enum Lifecycle {
        /// Open and streaming, its completions' descriptor watched by the loop.
        case streaming(LibcameraCamera, watched: FileDescriptor)
        /// Not open: missing, lost or refused (why is in `retry`), retried every 2 s.
        case closed
    }

    private let selector: String
    private let width: Int
    private let height: Int
    private let context: DeviceContext
    private var loop: EventLoop { context.loop }
    private let openCamera: Opener
    private var lifecycle = Lifecycle.closed
    /// Missing, lost, retried every 2 s, back; it holds why the camera is not open.
    private let retry: DeviceRetryRunner
    /// Frames a second while idle (0: full rate always), whether the booth is idle, and the timer that
    /// gives the idle camera its next frame.
    private let idleFPS: Int
    private var idle = false
    private var idleTick: EventLoop.TimerToken?

    /// A camera opened now on `context`'s loop, delivering `idleFPS` frames a second while the booth is idle (0: all);
    /// one that does not open is reported (`cameraUnavailable`) and retried.
    package init(
        _ context: DeviceContext, selector: String, width: Int, height: Int, idleFPS: Int,
        open: @escaping Opener = { selector, width, height throws(CameraError) in
            try LibcameraCamera(selector: selector, width: width, height: height)
        }
    ) {
        self.context = context
        self.selector = selector
        self.width = width
        self.height = height
        self.idleFPS = idleFPS
        openCamera = open
        retry = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: context.loop,
            report: context.report)
        retry.opened(problem: self.open(), of: self)
    }

    /// The open camera, if it is.
    private var camera: LibcameraCamera? {
        if case .streaming(let camera, _) = lifecycle { camera } else { nil }
    }

    /// Why the camera is not open, if it is not.
    var problem: String? { retry.problem }
    package var name: String { camera.map { "libcamera:\($0.id)" } ?? "libcamera:\(selector) (not open)" }
    package var model: String { camera?.model ?? "unknown camera" }
    package var lightLevel: Double? { camera?.latestLux }

    package func capture(_ id: CaptureID, trigger: Instant) {
        guard let camera else {
            context.reportNow(.captureFailed(id, DeviceFault(.camera, .missing, problem ?? "no camera")))
            return
        }
        do {
            try camera.capture(trigger: trigger, cookie: id.cookie)
        } catch {
            context.reportNow(.captureFailed(id, DeviceFault(camera: error)))
            if case .gone = error { lose("\(error)") }
        }
    }

    package func setIdle(_ idle: Bool) {
        self.idle = idle && idleFPS > 0
        pace()
    }

    /// A camera module's focus is libcamera's own (continuous, or fixed): nothing to drive.
    package func focus() {}

    /// libcamera's camera needs nothing put back; the process's exit closes it.
    package func stop() {}

    /// Applies the pace to the open camera: idle, one frame every 1/idleFPS s from a loop timer; else
    /// every frame.
    private func pace() {
        if let idleTick { loop.cancel(idleTick) }
        idleTick = nil
        guard let camera else { return }
        camera.setIdle(idle)
        if idle { scheduleTick(at: loop.now().advanced(by: .seconds(1) / idleFPS)) }
    }

    /// The idle camera's next frame at `deadline`, then every 1/idleFPS s on an absolute schedule.
    private func scheduleTick(at deadline: Instant) {
        idleTick = loop.schedule(at: deadline) { [unowned self] in
            self.camera?.resume(count: 1)
            self.scheduleTick(at: deadline.advanced(by: .seconds(1) / self.idleFPS))
        }
    }

    private func drain() {
        guard let camera else { return }
        for result in camera.drainResults() {
            let id = CaptureID(cookie: result.cookie)
            switch result.outcome {
            case .success(let frame):
                context.frames(id, LibcameraFrame(frame: frame))
            case .failure(let error):
                context.reportNow(.captureFailed(id, DeviceFault(camera: error)))
                switch error {
                case .gone, .timeout: lose("\(error)")
                default: break
                }
            }
        }
    }

    /// Fails every armed capture (the booth arms one at a time): their timeout results, drained at
    /// once, close the stalled camera and reopen it.
    package func expire(_ id: CaptureID) {
        guard let camera else { return }
        if camera.expireCaptures(now: loop.now(), timeout: .zero) > 0 {
            drain()
        }
    }

    /// Opens the camera and watches its completions: nil when it streams, else why not. A camera libcamera cannot
    /// open again in this process (ESTALE) asks the booth to restart.
    private func open() -> String? {
        let opened: LibcameraCamera
        do {
            opened = try openCamera(selector, width, height)
        } catch {
            if case .failed(_, _, let code, _) = error, Errno(rawValue: code) == .staleNFSFileHandle {
                // libcamera cannot let go of a camera that vanished unseen: only a new process can open
                // one again, so stop and let systemd (Restart=always) start the booth afresh.
                Log.error("camera: \(error)")
                context.reportNow(.shutdownRequested(.restart))
            }
            return "\(error)"
        }
        let fd = opened.eventFileDescriptor
        do {
            try loop.register(readable: fd) { [unowned self] in self.drain() }
        } catch {
            return "\(error)"
        }
        lifecycle = .streaming(opened, watched: fd)
        pace()
        return nil
    }

    /// The open camera failed: it is closed and retried.
    private func lose(_ reason: String) {
        guard case .streaming(_, let fd) = lifecycle else { return }
        loop.unregister(fd)
        lifecycle = .closed
        pace()
        retry.lost(reason, of: self)
    }
}

extension LibcameraDevice: RetriedDevice {
    var retryLabel: String { name }
    var retryBusy: Bool { false }
    func reopenForRetry() -> String? { open() }
}

/// A libcamera frame held for the save worker, encoded straight from its mapped planes.
struct LibcameraFrame: PhotoFrame {
    let frame: CapturedFrame

    var sensorTime: Instant { frame.sensorTime }
    var exposureTime: Duration? { frame.exposureTime }
    var analogueGain: Double? { frame.analogueGain }

    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8] {
        try frame.withPixelFrame { (pixels) throws(PhotoEncodingError) in
            try JPEGEncoder.encode(pixels, options: options)
        }
    }

    func release() { frame.release() }
}
