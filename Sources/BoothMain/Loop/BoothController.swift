// BoothController: runs the booth.
import BoothCore
import BoothTime
import LEDCountdown
import PhotoEncoding
import PhotoModel
import PhotoStore
import Printing
import SoundOutput
import USBSticks

/// Runs the booth: feeds device events to the state machine and carries out its actions, all on the
/// event loop's one thread. The same controller runs the real booth and the simulator; only the
/// devices differ.
final class BoothController {
    /// The devices a booth is made of.
    struct Devices {
        var inputs: [any InputDevice]
        var sound: any SoundDevice
        var camera: any CameraDevice
        var lights: any LightsDevice
    }

    let loop: EventLoop
    let log: EventsLog
    private(set) var machine: BoothStateMachine
    private let settings: BoothSettings
    private let devices: Devices
    private let renderer: LEDRenderer
    private let saver: PhotoSaver
    private let exports: ExportWorker
    /// CUPS, when photos are printed (`print.mode`); nil otherwise (libcups is then never loaded).
    private let printer: PhotoPrinter?
    /// The gallery's Print button's requests (`print.from_gallery`, printing on); nil otherwise.
    private var galleryPrints: GalleryPrintDesk?
    private let signals: SignalSource
    private let watchdog: SystemdNotifier
    private let wallClock: WallClock
    private var timers: [BoothTimer: EventLoop.TimerToken] = [:]
    private var frames: [CaptureID: any PhotoFrame] = [:]
    private var captureTriggers: [CaptureID: Instant] = [:]
    /// The exit code once the machine asked to exit.
    private(set) var exitCode: Int32?
    /// Events reported while a batch of actions is carried out, handled in order after it: the
    /// machine never sees an event in the middle of a batch (no nested dispatch).
    private var queued: [(event: BoothEvent, time: Instant, source: String?)] = []
    /// True while events are being handled (a report then only queues).
    private var handling = false

    /// A booth of `devices`, made on `loop` (a real clock, or for the simulator's `--fast` and tests a virtual one)
    /// reporting to `inbox`, which the booth opens once it is made; photos are dated by `wallClock` when it is
    /// trusted.
    init(
        settings: BoothSettings, choices: RuntimeChoices, devices: Devices, loop: EventLoop, inbox: EventInbox,
        log: EventsLog, wallClock: WallClock
    ) throws {
        // A logo that cannot be printed is a start error, as a config error is (the host sees it at once, not on the
        // first print); one that goes bad later is left out of the prints (PrintSheet).
        let sheet = PrintSheet(settings: settings)
        if settings.printMode != .off {
            do throws(PrintError) {
                try sheet.checkLogo()
            } catch {
                throw BoothFailure(error.description)
            }
        }
        self.settings = settings
        self.wallClock = wallClock
        self.devices = devices
        self.log = log
        self.loop = loop
        var configuration = settings.machineConfiguration
        configuration.soundDurations = devices.sound.soundDurations
        machine = BoothStateMachine(configuration: configuration, choices: choices)
        renderer = LEDRenderer(loop: loop, lights: devices.lights, log: log)
        let store = try PhotoStore(directory: settings.photosDirectory, reserve: settings.freeSpaceReserve)
        if store.indexWasRebuilt {
            Log.warning(
                "the photo index (\(PhotoStore.indexName)) was missing or damaged and was rebuilt from the photos: "
                    + "which stick each was exported to is forgotten, and the next insert of each stick checks again")
        } else if store.indexEntriesCorrected > 0 {
            Log.warning(
                "the photo index (\(PhotoStore.indexName)) disagreed with the photos folder on "
                    + "\(store.indexEntriesCorrected) photo(s) (added, removed or changed by hand, or a save cut "
                    + "short by a power cut) and was corrected from the files")
        }
        if let old = store.replacedBoothID {
            Log.warning(
                "booth id \(old) was made on another machine (a cloned or moved SD card): this booth is now "
                    + "\(store.boothID), so its photos stay apart from the other booth's on a shared stick")
        }
        let owners = settings.exportSticks == .owner ? OwnerSticks(directory: settings.stateFolder) : nil
        // The workers' reports reach the booth once it is made: they come only from the loop's callbacks.
        var exported: (ExportWorker.Report) -> Void = { _ in }
        var saved: (PhotoSaver.Result) -> Void = { _ in }
        var printed: (PhotoPrinter.Report) -> Void = { _ in }
        exports = try ExportWorker(
            store: store, settings: settings, owners: owners,
            sounds: StickSounds(settings: settings, allowedFileSystems: ExportOptions.defaultFileSystems), loop: loop
        ) { exported($0) }
        saver = try PhotoSaver(
            store: store,
            options: JPEGOptions(
                quality: settings.jpegQuality,
                crop: CropRatio(width: settings.ratio.width, height: settings.ratio.height)),
            orientation: settings.rotation == 180 ? 3 : 1, cleanupExported: settings.cleanupExported, owners: owners,
            loop: loop
        ) { saved($0) }
        printer =
            settings.printMode == .off
            ? nil
            : try PhotoPrinter(
                client: CUPSClient(queue: settings.printQueue), copies: settings.printCopies,
                ledger: PrintLedgerFile(path: settings.printLedgerFile),
                waitingFile: PrintWaitingFile(path: settings.printWaitingFile),
                limits: (settings.printLimitPerPhoto, settings.printLimitPerEvent),
                sheet: sheet, loop: loop
            ) { printed($0) }
        signals = try SignalSource()
        watchdog = SystemdNotifier()
        exported = { [unowned self] report in self.exportReport(report) }
        saved = { [unowned self] result in self.saveResult(result) }
        printed = { [unowned self] report in self.printReport(report) }
        if let printer, settings.printFromGallery {
            do {
                galleryPrints = try GalleryPrintDesk(
                    path: settings.galleryPrintSocket, loop: loop, printer: printer, store: store
                ) { [unowned self] photo in
                    self.log.record(
                        "printAsked", at: self.loop.now(), [("path", .string(photo)), ("from", .string("gallery"))])
                    Log.info("print: a guest asked for \(photo) from the gallery")
                }
            } catch {
                // Printing goes on without the gallery's button; the gallery says the booth does not answer.
                Log.error("print: the gallery's Print button cannot reach the booth: \(error)")
            }
        }
        inbox.open(for: self)
    }

    /// Shows idle and runs until the machine exits; returns the exit code.
    func run() throws -> Int32 {
        try loop.register(readable: signals.fileDescriptor) { [unowned self] in
            for signal in self.signals.drain() {
                self.log.record("signal", at: loop.now(), [("signal", .int(Int64(signal)))])
                if signal == SignalSource.hotspotStarted {
                    self.dispatch(.hotspotStarted, at: loop.now())
                } else {
                    self.dispatch(.shutdownRequested(.abortSequence), at: loop.now())
                }
            }
        }
        watchdog.start(on: loop)
        loop.afterCallbacks = { [log] in log.flush() }
        let now = loop.now()
        let clock = wallClock.state()
        log.record(
            "ready", at: now,
            [
                ("sound", .string(machine.choices.sound)), ("delay", .string(String(machine.choices.delaySeconds))),
                ("visualCountdown", .bool(machine.choices.visualCountdown)),
                ("volume", .int(Int64(machine.choices.volumePercent))),
                ("soundDevice", .string(devices.sound.name)),
                ("camera", .string(devices.camera.name)), ("clock", .string(clock)),
            ])
        handleInOrder { perform(machine.start(at: now), at: now) }
        log.flush()
        watchdog.notify("READY=1")
        if clock != "synchronised", clock != "trusted" {
            Log.info(
                "clock \(clock): photos are undated (named by number alone, the stick's \(PhotoName.undated) folder) "
                    + "until network time sets the clock; booth.trust_clock = true trusts a battery-backed one")
        }
        Log.info(
            "ready: input \(devices.inputs.map(\.name).joined(separator: ", ")), camera \(devices.camera.name), "
                + "sound \(devices.sound.name)")
        if exitCode == nil { try loop.run() }
        saver.finish()
        // A photo kept on the way out is handed to CUPS before the booth ends; CUPS prints it without the booth. A
        // guest's print being handed over is answered then.
        galleryPrints?.close()
        printer?.finish()
        // A camera over USB gets back the setting the booth changed, and its USB interface is free again.
        devices.camera.stop()
        // A stick being written is left verified and unmounted (safe to remove), never half-copied.
        for report in exports.finish() { exportReport(report) }
        devices.lights.showRow(.dark)
        devices.lights.setButtonLED(false)
        devices.lights.setFlash(false)
        devices.lights.setHaptic(false)
        log.flush()
        log.sync()
        watchdog.notify("STOPPING=1")
        return exitCode ?? 0
    }

    /// Feeds one event to the state machine and performs its actions; an event reported while actions
    /// are carried out waits for the batch to end. `source` names the input it came from where there may be several
    /// (a remote), for the events log.
    func dispatch(_ event: BoothEvent, at time: Instant, from source: String? = nil) {
        queued.append((event, time, source))
        handleInOrder {}
    }

    /// Runs `first`, then every queued event in order, unless events are being handled already (the
    /// outer call then takes what was queued).
    private func handleInOrder(_ first: () -> Void) {
        guard !handling else {
            first()
            return
        }
        handling = true
        defer { handling = false }
        first()
        var next = 0
        while next < queued.count {
            let (event, time, source) = queued[next]
            next += 1
            handle(event, at: time, from: source)
        }
        queued.removeAll(keepingCapacity: true)
    }

    private func handle(_ event: BoothEvent, at time: Instant, from source: String?) {
        switch event {
        case .buttonPressed: recordInput("buttonPressed", at: time, from: source)
        case .buttonReleased: recordInput("buttonReleased", at: time, from: source)
        case .buttonLongPressed: recordInput("buttonLongPressed", at: time, from: source)
        case .knobPressed: recordInput("knobPressed", at: time, from: source)
        case .knobLongPressed: recordInput("knobLongPressed", at: time, from: source)
        case .cancelPressed: recordInput("cancelPressed", at: time, from: source)
        case .printPressed: recordInput("printPressed", at: time, from: source)
        case .knobTurned(let steps):
            recordInput("knobTurned", at: time, from: source, [("steps", .int(Int64(steps)))])
        case .soundFinished(let purpose):
            var fields: [(String, EventsLog.Value)] = [("purpose", .string(purpose.rawValue))]
            let report = devices.sound.playbackReport
            if let progress = report.firstProgress { fields.append(("first_progress_us", .int(progress.microseconds))) }
            if let underruns = report.underruns { fields.append(("underruns", .int(Int64(underruns)))) }
            if let wait = report.longestWaitNanoseconds { fields.append(("longest_wait_us", .int(wait / 1000))) }
            log.record("soundFinished", at: time, fields)
        case .healthMeasured(let reading):
            var fields: [(String, EventsLog.Value)] = []
            if let temperature = reading.temperature { fields.append(("millidegrees", .int(temperature))) }
            if let flags = reading.throttled { fields.append(("throttled", .string("0x" + String(flags, radix: 16)))) }
            log.record("temperature", at: time, fields)
        case .lightMeasured(let lux):
            log.record("light", at: time, [("lux", lux.map { .int(Int64($0.rounded())) } ?? .string("unknown"))])
        case .soundFailed(let purpose, let reason):
            log.record("soundFailed", at: time, [("purpose", .string(purpose.rawValue)), ("reason", .string(reason))])
        default:
            break
        }
        perform(machine.handle(event, at: time), at: time)
    }

    /// An `input` record: which input, what else it says, when it was handled, and the device it came from when one
    /// of several can send it (a remote's name; the booth's own GPIO controls name none).
    private func recordInput(
        _ name: String, at time: Instant, from source: String?, _ extra: [(String, EventsLog.Value)] = []
    ) {
        var fields: [(String, EventsLog.Value)] = [("input", .string(name))] + extra
        fields.append(("handled_us", .int(loop.now().microseconds)))
        if let source { fields.append(("from", .string(source))) }
        log.record("input", at: time, fields)
    }

    private func perform(_ actions: [BoothAction], at time: Instant) {
        for action in actions { perform(action, at: time) }
    }

    private func perform(_ action: BoothAction, at time: Instant) {
        switch action {
        case .enterPhase(let phase, let from):
            log.record("state", at: time, [("from", .string(from.rawValue)), ("to", .string(phase.rawValue))])
        case .setCameraIdle(let idle):
            devices.camera.setIdle(idle)
        case .setVolume(let percent):
            devices.sound.setVolume(percent: percent)
        case .playSound(let sound, let purpose):
            devices.sound.play(sound, purpose: purpose)
            let returned = loop.now()
            let timing = devices.sound.playbackReport
            var fields: [(String, EventsLog.Value)] = [
                ("sound", .string(sound)), ("purpose", .string(purpose.rawValue)),
                ("event_us", .int(time.microseconds)), ("returned_us", .int(returned.microseconds)),
            ]
            if let start = timing.deviceStart { fields.append(("device_start_us", .int(start.microseconds))) }
            // The first samples with ALSA (or, silent or simulated, the moment play returned).
            log.record("soundStarted", at: timing.handedOver ?? returned, fields)
        case .stopSound:
            devices.sound.stop()
            log.record("soundStopped", at: time)
        case .startTimer(let timer, let deadline):
            if let old = timers[timer] { loop.cancel(old) }
            timers[timer] = loop.schedule(at: deadline) { [unowned self] in
                self.timers[timer] = nil
                self.dispatch(.timerFired(timer), at: deadline)
            }
        case .cancelTimer(let timer):
            if let token = timers.removeValue(forKey: timer) { loop.cancel(token) }
        case .showLEDs(let pattern, let since):
            renderer.show(pattern, since: since)
        case .setButtonLED(let on):
            devices.lights.setButtonLED(on)
            log.record("buttonLED", at: time, [("on", .bool(on))])
        case .setFlash(let on):
            devices.lights.setFlash(on)
            log.record("flash", at: time, [("on", .bool(on))])
        case .setHaptic(let on):
            devices.lights.setHaptic(on)
            log.record("haptic", at: time, [("on", .bool(on))])
        case .focusCamera:
            devices.camera.focus()
        case .capturePhoto(let id, let trigger):
            captureTriggers[id] = trigger
            devices.camera.capture(id, trigger: trigger)
            log.record(
                "captureRequested", at: time,
                [("capture", .string(id.description)), ("trigger_us", .int(trigger.microseconds))])
        case .savePhoto(let id):
            guard let frame = frames.removeValue(forKey: id) else {
                preconditionFailure("savePhoto for capture \(id) with no frame")
            }
            loop.backgroundWork += 1
            saver.save(
                id, frame: frame, takenAt: wallClock.photoTime(), moment: wallClock.moment(of: frame.sensorTime),
                markPath: wallClock.datingMarkPath,
                model: devices.camera.model)
        case .releaseCapture(let id):
            frames.removeValue(forKey: id)?.release()
        case .expireCapture(let id):
            captureTriggers[id] = nil
            devices.camera.expire(id)
        case .checkStorage:
            // Background work until it answers: virtual time waits for it, as for a save.
            loop.backgroundWork += 1
            saver.checkStorage()
        case .measureLight:
            dispatch(.lightMeasured(lux: devices.camera.lightLevel), at: time)
        case .claimStick:
            // `stickClaimed` follows once the stick's id is on it and recorded (the export worker's `.claimed`).
            exports.claim()
        case .discardPhoto(let path):
            saver.discard(path)
        case .printPhotos(let paths):
            printer?.print(paths)
        case .persistChoices(let choices):
            saver.persist(choices, to: settings.stateFile)
        case .reportSetting(let name, let value):
            log.record("setting", at: time, [("name", .string(name)), ("value", .string(value))])
        case .reportError(let message):
            log.record("error", at: time, [("message", .string(message))])
            Log.error(message)
        case .reportIgnored(let message):
            log.record("ignored", at: time, [("reason", .string(message))])
        case .exit(let code):
            exitCode = code
            loop.stop()
        }
    }

    /// The camera delivered capture `id`'s frame (through the `EventInbox`).
    func frameArrived(_ id: CaptureID, _ frame: any PhotoFrame) {
        let now = loop.now()
        let trigger = captureTriggers.removeValue(forKey: id)
        var fields: [(String, EventsLog.Value)] = [
            ("capture", .string(id.description)), ("sensor_us", .int(frame.sensorTime.microseconds)),
            ("trigger_us", .int(trigger?.microseconds ?? 0)),
        ]
        // A camera over USB: when its trigger went out (sensor_us is when the camera acknowledged it).
        if let sent = frame.triggerSent { fields.append(("sent_us", .int(sent.microseconds))) }
        log.record("capture", at: now, fields)
        frames[id] = frame
        dispatch(.captureCompleted(id), at: now)
    }

    private func printReport(_ report: PhotoPrinter.Report) {
        let now = loop.now()
        switch report {
        case .sent(let photo, let job, let queue):
            log.record(
                "printSent", at: now,
                [
                    ("path", .string(photo)), ("job", .int(Int64(job))),
                    ("queue", .string(queue.isEmpty ? "default" : queue)),
                ])
        case .refused(let photo, let reason):
            log.record("printFailed", at: now, [("path", .string(photo)), ("reason", .string(reason))])
            Log.error("print: \(photo) not printed: \(reason)")
        case .waiting(let photo, let reason, _):
            log.record("printWaiting", at: now, [("path", .string(photo)), ("reason", .string(reason))])
            Log.warning("print: \(photo) waits for CUPS, sent once it answers: \(reason)")
        case .kept(let photo):
            Log.info("print: \(photo) still waits for CUPS: kept, and sent once CUPS answers after the booth starts")
        case .limited(let photo, let refusal):
            log.record("printRefused", at: now, [("path", .string(photo)), ("reason", .string(refusal.description))])
            Log.warning("print: \(photo) not printed: \(refusal)")
            dispatch(.printRefused, at: now)
        case .ended(let photo, let job, .completed):
            log.record("printed", at: now, [("path", .string(photo)), ("job", .int(Int64(job)))])
        case .ended(let photo, let job, let state):
            let reason =
                "CUPS ended job \(job) \(state) (`lpstat -W completed -o` lists it; the printer's page says why)"
            log.record(
                "printFailed", at: now,
                [("path", .string(photo)), ("job", .int(Int64(job))), ("reason", .string(reason))])
            Log.error("print: \(photo) not printed: \(reason)")
        case .lost(let photo, let job, let reason):
            log.record(
                "printFailed", at: now,
                [("path", .string(photo)), ("job", .int(Int64(job))), ("reason", .string(reason))])
            Log.error("print: job \(job) of \(photo) no longer followed: \(reason)")
        case .looked, .handedOver, .restored:
            break
        case .resumed(let photo, let job):
            Log.info("print: following job \(job) of \(photo), sent before the booth started")
        case .queue(let attention, _):
            log.record("printer", at: now, [("attention", .string(attention ?? "none"))])
            if let attention {
                Log.warning("print: the printer needs attention: \(attention); prints wait or fail until then")
            } else {
                Log.info("print: the printer is ready")
            }
            dispatch(.deviceWarning(.printerNeedsAttention, active: attention != nil), at: now)
        }
    }

    private func exportReport(_ report: ExportWorker.Report) {
        let now = loop.now()
        switch report {
        case .started(let point):
            log.record("exportStarted", at: now, [("stick", .string(point))])
            Log.info("export: stick at \(point)")
        case .progress(let point, let done, let total):
            log.record(
                "exportProgress", at: now,
                [("stick", .string(point)), ("done", .int(Int64(done))), ("total", .int(Int64(total)))])
            dispatch(.exportProgressed(done: done, total: total), at: now)
        case .finished(let point, let summary):
            log.record(
                "exportFinished", at: now,
                [
                    ("stick", .string(point)), ("copied", .int(Int64(summary.copied))),
                    ("unmounted", .bool(summary.unmounted)),
                    ("bytes", .int(summary.bytes)),
                    ("photos", .int(Int64(summary.copied + summary.adopted + summary.alreadyThere))),
                    ("layouts", .int(Int64(summary.layouts))),
                    ("raw", .int(Int64(summary.raw))),
                ])
            for skip in summary.skipped { Log.warning("export: \(point): skipped \(skip.source): \(skip.reason)") }
            if let error = summary.unmountError {
                Log.error("export: \(point) not unmounted: \(error); do not pull it yet")
            } else if summary.unmounted {
                Log.info("export: \(summary.copied) photo(s) copied to \(point); unmounted: safe to remove")
            }
            dispatch(.exportFinished(safeToRemove: summary.unmounted), at: now)
        case .failed(let point, let message, let removed, let unmounted):
            log.record(
                "exportFailed", at: now,
                [
                    ("stick", .string(point)), ("message", .string(message)), ("stickRemoved", .bool(removed)),
                    ("unmounted", .bool(unmounted)),
                ])
            dispatch(.exportFailed(reason: "\(point): \(message)"), at: now)
            // What was copied is verified and flushed; said apart so the person knows the stick may go.
            if unmounted { Log.info("export: \(point) unmounted: safe to remove") }
            if removed { dispatch(.stickRemoved, at: now) }
        case .removed(let point):
            log.record("stickRemoved", at: now, [("stick", .string(point))])
            dispatch(.stickRemoved, at: now)
        case .unknownStick(let point, let message):
            log.record("stickUnknown", at: now, [("stick", .string(point))])
            Log.warning("export: \(message)")
            dispatch(.stickUnknown, at: now)
        case .claimed(let point):
            log.record("stickClaimed", at: now, [("stick", .string(point))])
            Log.info("export: \(point) is now one of this booth's own sticks; exporting")
        case .soundsImported(let point, let imported):
            let sounds = imported.sounds
            for sound in sounds {
                log.record("soundImported", at: now, [("stick", .string(point)), ("sound", .string(sound.name))])
                Log.info("sound: \(sound.name) imported from \(point)")
            }
            for rejection in imported.rejections {
                log.record("error", at: now, [("message", .string("sound from \(point): \(rejection)"))])
                Log.warning("sound from \(point): \(rejection)")
            }
            devices.sound.add(sounds)
            let lengths = Dictionary(sounds.map { ($0.name, $0.buffer.durationNanoseconds) }) { _, new in new }
            if !lengths.isEmpty { dispatch(.soundsAdded(lengths), at: now) }
        }
    }

    private func saveResult(_ result: PhotoSaver.Result) {
        let now = loop.now()
        switch result {
        case .saved(let id, let path, let bytes):
            loop.backgroundWork -= 1
            log.record(
                "photoSaved", at: now,
                [("capture", .string(id.description)), ("path", .string(path)), ("bytes", .int(Int64(bytes)))])
            dispatch(.photoSaved(id, path: path), at: now)
        case .failed(let id, let reason):
            loop.backgroundWork -= 1
            dispatch(.photoSaveFailed(id, reason: reason), at: now)
        case .discarded(let path):
            log.record("photoDiscarded", at: now, [("path", .string(path))])
        case .storage(let hasRoom, let requested):
            if requested { loop.backgroundWork -= 1 }
            dispatch(.storageChecked(hasRoom: hasRoom), at: now)
        case .error(let message):
            log.record("error", at: now, [("message", .string(message))])
            Log.error(message)
        }
    }
}
