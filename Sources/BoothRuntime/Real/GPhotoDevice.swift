// GPhotoDevice: the booth's camera through libgphoto2 (a DSLR or mirrorless camera over USB).
import BoothCore
import BoothSystem
import BoothTime
import GPhotoCapture
import PhotoEncoding
import PhotoModel
import PhotoStore

/// The booth's camera through libgphoto2: a photographer's own camera over USB. libgphoto2 blocks on USB, so the
/// camera lives on a worker thread of its own and reports to the loop through the worker's mailbox; the loop never
/// waits for it. The camera is opened at start; a missing or lost one is reported (presses are refused) and looked
/// for every 2 s until it returns. The countdown's start asks it to focus; the countdown's end presses the shutter, and
/// the photo is the JPEG the camera adds, downloaded whole (the camera's own bytes and EXIF: no crop, no re-encode).
/// With `keepOnCard` the camera writes to its card and keeps its files there; without, the booth downloads the shot's
/// RAW too (saved beside the photo in the store) and deletes both from the camera. The one setting the booth changes
/// (the capture target) is put back when the booth stops. Between photos it asks the camera for its battery level
/// every minute, so a camera that went away is noticed (and looked for) before the next press, and a low battery is
/// shown (`cameraBatteryLow`).
package final class GPhotoDevice: CameraDevice {
    /// What the worker reports to the loop.
    enum Report: Sendable {
        /// The camera is open (`name`, `model`), or why not.
        case opened(Result<GPhotoSession.Opened, GPhotoError>)
        /// Capture `id`'s photo, or why there is none; the camera's error when it went away.
        case captured(CaptureID, Result<GPhotoSession.Photo, GPhotoError>)
        /// Something the camera failed that is worth a warning (focusing).
        case note(String)
        /// Between photos: its battery level (nil: it says none), or why it is lost.
        case awake(battery: String?, lost: String?)
    }

    /// How long the camera may take from the trigger to the file it adds.
    static let photoWait: Duration = .seconds(10)
    /// How often the open camera is asked for its battery level between photos.
    static let keepAwake: Duration = .seconds(60)

    private let context: DeviceContext
    private var loop: EventLoop { context.loop }
    private let session: GPhotoSession
    private let worker: Worker<Report>
    /// The open camera's name and model; nil while it is not open.
    private var opened: GPhotoSession.Opened?
    /// Whether an open is under way on the worker.
    private var opening = false
    /// Why the last open failed (what a retry that only starts one answers meanwhile).
    private var openProblem: String?
    /// Whether the booth is idle (from a press until it is idle again the camera is left alone between captures).
    private var idle = true
    /// Captures the booth gave up on: their photos are dropped when they arrive.
    private var expired: Set<CaptureID> = []
    /// Captures under way on the worker.
    private var inFlight: Set<CaptureID> = []
    private var keepAwakeTick: EventLoop.TimerToken?
    /// Whether the camera's battery is low as it last said (`cameraBatteryLow` shown).
    private var batteryLow = false
    /// Missing, lost, looked for every 2 s, back; it holds why the camera is not open.
    private let retry: DeviceRetryRunner

    /// The camera `selector` ("0" or "auto": the first camera libgphoto2 finds that can take photos; else a model or a
    /// port, "usb:001,005"), opened now (the booth is starting: nothing waits yet), then run by a worker of its own
    /// reporting on `context`'s loop. One that does not open is reported (`cameraUnavailable`) and looked for again.
    package convenience init(_ context: DeviceContext, selector: String, keepOnCard: Bool) throws(SystemError) {
        try self.init(context, session: GPhotoSession(selector: selector, keepOnCard: keepOnCard))
    }

    /// The camera `session` opens (tests: a session over scripted cameras), run as above.
    package init(_ context: DeviceContext, session: GPhotoSession) throws(SystemError) {
        self.context = context
        self.session = session
        worker = try Worker(label: "heylook.camera", loop: context.loop)
        retry = DeviceRetryRunner(
            DeviceRetry(name: "camera", interval: .seconds(2)), warning: .cameraUnavailable, loop: context.loop,
            report: context.report)
        opening = true
        handle(.opened(session.open()))
    }

    /// Why the camera is not open, if it is not.
    var problem: String? { retry.problem }
    package var name: String { opened.map { "gphoto2:\($0.name)" } ?? "gphoto2:\(session.selector) (not open)" }
    package var model: String { opened?.model ?? "unknown camera" }
    /// A camera over USB reports no light level.
    package var lightLevel: Double? { nil }

    package func capture(_ id: CaptureID, trigger: Instant) {
        guard opened != nil else {
            context.reportNow(.captureFailed(id, DeviceFault(.camera, .missing, problem ?? "no camera")))
            return
        }
        inFlight.insert(id)
        onWorker { [session] post in
            post(.captured(id, session.capture(within: Self.photoWait)))
        }
    }

    package func focus() {
        guard opened != nil else { return }
        onWorker { [session] post in
            if let note = session.focus() { post(.note(note)) }
        }
    }

    /// The photo of capture `id`, if it still comes, is dropped (it stays on the card when photos are kept there).
    package func expire(_ id: CaptureID) {
        if inFlight.contains(id) { expired.insert(id) }
    }

    /// A camera over USB has no stream to pace; while the booth is not idle, the battery is not read (the shutter
    /// never waits behind it).
    package func setIdle(_ idle: Bool) { self.idle = idle }

    /// Puts back the camera's setting the booth changed and closes it (its USB interface free for others); waits
    /// for the worker.
    package func stop() {
        onWorker { [session] _ in session.close() }
        worker.finish()
    }

    /// Runs `job` on the camera's worker; its reports reach `handle` on the loop's thread.
    private func onWorker(_ job: @escaping @Sendable (_ post: (Report) -> Void) -> Void) {
        worker.run(job) { [unowned self] in handle($0) }
    }

    private func startOpening() {
        guard !opening else { return }
        opening = true
        onWorker { [session] post in post(.opened(session.open())) }
    }

    private func handle(_ report: Report) {
        switch report {
        case .opened(.success(let camera)):
            opening = false
            opened = camera
            Log.info("camera: \(camera.name) opened through libgphoto2\(camera.note.map { "; \($0)" } ?? "")")
            retry.opened(problem: nil, of: self)
            showBattery(camera.battery)
            scheduleKeepAwake()
        case .opened(.failure(let error)):
            opening = false
            openProblem = "\(error)"
            retry.opened(problem: openProblem, of: self)
        case .captured(let id, let result):
            inFlight.remove(id)
            let dropped = expired.remove(id) != nil
            switch result {
            case .success(let photo):
                if dropped {
                    Log.warning("camera: the photo \(photo.file) came after the booth gave up on it; not saved")
                } else {
                    context.frames(
                        id,
                        CameraFileFrame(
                            bytes: photo.bytes, sensorTime: photo.acknowledged, triggerSent: photo.sent,
                            companions: photo.others.compactMap(CameraFileFrame.companion)))
                }
                if let note = photo.note { Log.warning("camera: \(note)") }
            case .failure(let error):
                if !dropped { context.reportNow(.captureFailed(id, DeviceFault(camera: error))) }
                if case .gone = error { lose("\(error)") }
            }
        case .note(let text):
            Log.warning("camera: \(text)")
        case .awake(let level, let lost):
            if let lost {
                lose(lost)
            } else if opened != nil {
                showBattery(level)
            }
        }
    }

    /// Shows `cameraBatteryLow` while the camera says its battery is low (`GPhotoSession.isLow`), and ends it when it
    /// says otherwise or goes away.
    private func showBattery(_ level: String?) {
        let low = opened != nil && GPhotoSession.isLow(battery: level)
        guard low != batteryLow else { return }
        batteryLow = low
        if low { Log.warning("camera: its battery is low (\(level ?? "?")): change or charge it") }
        context.reportNow(.deviceWarning(.cameraBatteryLow, active: low))
    }

    /// The open camera went away: it is closed (on the worker) and looked for again.
    private func lose(_ reason: String) {
        guard opened != nil else { return }
        opened = nil
        showBattery(nil)
        openProblem = reason
        if let keepAwakeTick { loop.cancel(keepAwakeTick) }
        keepAwakeTick = nil
        onWorker { [session] _ in session.close() }
        retry.lost(reason, of: self)
    }

    /// Every minute while open, idle and not capturing: the battery level, read on the worker.
    private func scheduleKeepAwake() {
        if let keepAwakeTick { loop.cancel(keepAwakeTick) }
        keepAwakeTick = loop.schedule(at: loop.now().advanced(by: Self.keepAwake)) { [unowned self] in
            keepAwakeTick = nil
            guard opened != nil else { return }
            if idle, inFlight.isEmpty {
                onWorker { [session] post in
                    let lost = session.keepAwake()
                    post(.awake(battery: session.battery, lost: lost))
                }
            }
            scheduleKeepAwake()
        }
    }
}

extension GPhotoDevice: RetriedDevice {
    var retryLabel: String { name }
    /// An open already under way on the worker is not started twice.
    var retryBusy: Bool { opening }

    /// Starts an open on the worker; what it finds comes back as its report. Meanwhile, why the last one failed.
    func reopenForRetry() -> String? {
        startOpening()
        return openProblem
    }
}

/// A photo the camera made itself: its JPEG file, kept as the camera wrote it.
struct CameraFileFrame: PhotoFrame {
    let bytes: [UInt8]
    /// When the camera acknowledged the trigger: its exposure starts there or just after.
    let sensorTime: Instant
    let triggerSent: Instant?
    /// The shot's other files (a RAW), saved beside the photo.
    let companions: [PhotoStore.Companion]
    /// The camera's own EXIF holds its exposure.
    var exposureTime: Duration? { nil }
    var analogueGain: Double? { nil }

    /// The camera's file as it is: the booth's JPEG options (size, quality, crop, EXIF) do not apply.
    func encodeJPEG(_ options: JPEGOptions) throws -> [UInt8] { bytes }

    func release() {}

    /// The camera's file `file` as a companion of the photo, named by its extension lowercased ("IMG_0001.CR2" →
    /// "cr2"); nil for a name without one the store can use (it is then not kept: the camera's card may have it).
    static func companion(_ file: GPhotoSession.File) -> PhotoStore.Companion? {
        guard let dot = file.name.lastIndex(of: ".") else { return nil }
        let ext = String(file.name[dot...].dropFirst()).lowercased()
        guard PhotoName.isCompanionExtension(ext) else { return nil }
        return PhotoStore.Companion(fileExtension: ext, bytes: file.bytes)
    }
}
