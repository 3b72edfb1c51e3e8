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
package final class BoothController {
    /// The devices a booth is made of.
    package struct Devices {
        var inputs: [any InputDevice]
        var sound: any SoundDevice
        var camera: any CameraDevice
        var lights: any LightsDevice

        package init(
            inputs: [any InputDevice], sound: any SoundDevice, camera: any CameraDevice, lights: any LightsDevice
        ) {
            self.inputs = inputs
            self.sound = sound
            self.camera = camera
            self.lights = lights
        }
    }

    let loop: EventLoop
    /// Flushed after each batch and synced on the way out; written through `journal`.
    let log: EventsLog
    /// What the booth writes down of each event, action and report.
    let journal: BoothJournal
    var machine: BoothStateMachine
    let settings: BoothSettings
    let devices: Devices
    let renderer: LEDRenderer
    let saver: PhotoSaver
    let exports: ExportWorker
    /// CUPS, when photos are printed (`print.mode`); nil otherwise (libcups is then never loaded).
    let printer: PhotoPrinter?
    /// The gallery's Print button's requests (`print.from_gallery`, printing on); nil otherwise.
    private var galleryPrints: GalleryPrintDesk?
    private let signals: SignalSource
    private let watchdog: SystemdNotifier
    let wallClock: WallClock
    var timers: [BoothTimer: EventLoop.TimerToken] = [:]
    var frames: [CaptureID: any PhotoFrame] = [:]
    var captureTriggers: [CaptureID: Instant] = [:]
    /// The exit code once the machine asked to exit.
    var exitCode: Int32?
    /// Events reported while a batch of actions is carried out, handled in order after it: the
    /// machine never sees an event in the middle of a batch (no nested dispatch).
    private var queued: [(event: BoothEvent, time: Instant, source: String?)] = []
    /// True while events are being handled (a report then only queues).
    private var handling = false

    /// A booth of `devices`, made on `loop` (a real clock, or for the simulator's `--fast` and tests a virtual one)
    /// reporting to `inbox`, which the booth opens once it is made; photos are dated by `wallClock` when it is
    /// trusted.
    package init(
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
        journal = BoothJournal(log: log)
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
        // The workers report through the inbox, which holds what comes before the controller is made.
        exports = try ExportWorker(
            store: store, settings: settings, owners: owners,
            sounds: StickSounds(settings: settings, allowedFileSystems: ExportOptions.defaultFileSystems), loop: loop
        ) { [inbox] in inbox.exported($0) }
        saver = try PhotoSaver(
            store: store,
            options: JPEGOptions(
                quality: settings.jpegQuality,
                crop: CropRatio(width: settings.ratio.width, height: settings.ratio.height)),
            orientation: settings.rotation == 180 ? 3 : 1, cleanupExported: settings.cleanupExported, owners: owners,
            loop: loop
        ) { [inbox] in inbox.saved($0) }
        printer =
            settings.printMode == .off
            ? nil
            : try PhotoPrinter(
                client: CUPSClient(queue: settings.printQueue), copies: settings.printCopies,
                ledger: PrintLedgerFile(path: settings.printLedgerFile),
                waitingFile: PrintWaitingFile(path: settings.printWaitingFile),
                limits: (settings.printLimitPerPhoto, settings.printLimitPerEvent),
                sheet: sheet, loop: loop
            ) { [inbox] in inbox.printed($0) }
        signals = try SignalSource()
        watchdog = SystemdNotifier()
        if let printer, settings.printFromGallery {
            do {
                galleryPrints = try GalleryPrintDesk(
                    path: settings.galleryPrintSocket, loop: loop, printer: printer, store: store
                ) { [unowned self] photo in
                    self.journal.printAsked(photo, at: self.loop.now())
                }
            } catch {
                // Printing goes on without the gallery's button; the gallery says the booth does not answer.
                Log.error("print: the gallery's Print button cannot reach the booth: \(error)")
            }
        }
        inbox.open(for: self)
    }

    /// Shows idle and runs until the machine exits; returns the exit code.
    package func run() throws -> Int32 {
        try loop.register(readable: signals.fileDescriptor) { [unowned self] in
            for signal in self.signals.drain() {
                self.journal.signal(signal, at: loop.now())
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
        journal.ready(
            at: now, choices: machine.choices, soundDevice: devices.sound.name, camera: devices.camera.name,
            clock: clock)
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
}
