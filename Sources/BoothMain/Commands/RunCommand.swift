// RunCommand: `booth run`.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import GPhotoCapture
import PhotoStore
import SoundOutput

/// `booth run`: the real booth on GPIO, ALSA and libcamera (what the systemd unit starts).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the booth on its real hardware: GPIO buttons and LEDs, ALSA sound, libcamera camera."
    )

    @OptionGroup var configFile: ConfigOption

    @Option(
        name: .customLong("events-json"), help: "Write one JSON object per event to this file; '-' for standard output."
    )
    var eventsJSON: String?

    @Option(help: "Where photos are saved (overrides the config's booth.photos_dir).")
    var photos: String?

    @Flag(
        name: .customLong("simulated-camera"),
        help: "Use the simulated camera (a test pattern) instead of libcamera (to test the wiring alone).")
    var simulatedCamera = false

    @Flag(
        name: .customLong("simulated-sound"),
        help: "Time the sounds without playing them instead of using ALSA.")
    var simulatedSound = false

    func run() throws {
        SignalSource.block()
        var settings = try configFile.settings()
        if let photos { settings.photosDirectory = photos }
        let library = SoundLibrary.load(folder: settings.soundsDirectory)
        for rejection in library.rejections { Log.warning("sound: \(rejection)") }
        // Every custom sound (copied in, or imported from a stick) joins the knob's cycle after the favourites.
        settings.favourites = BoothSettings.soundCycle(settings.favourites, adding: library.sounds.map(\.name))
        let booth = try BoothAssembly(settings: settings)
        let context = booth.context
        let gpio = try GPIOHardware(settings: settings.gpio, context: context)
        for problem in gpio.problems { Log.error("gpio: \(problem)") }
        if !gpio.hasButton {
            Log.error(
                "gpio: without the big button no photo can be taken; fix the line above (booth doctor lists the chips and lines)"
            )
        }
        let sound: any SoundDevice =
            simulatedSound
            ? SilentSound.builtIn(
                context,
                extra: Dictionary(library.sounds.map { ($0.name, $0.buffer.duration) }) { a, _ in a })
            : try ALSASound(
                context, device: settings.soundDevice, gainDecibels: settings.soundGainDB, custom: library.sounds)
        let camera: any CameraDevice
        if simulatedCamera {
            camera = SimulatedCamera(context)
        } else if let session = Self.usbCamera(settings) {
            camera = try GPhotoDevice(context, session: session)
        } else {
            camera = LibcameraDevice(
                context, selector: settings.camera, width: settings.cameraWidth, height: settings.cameraHeight,
                idleFPS: settings.cameraIdleFPS)
        }
        var inputs: [any InputDevice] = [gpio, try HealthMonitor(context)]
        // Remotes only when the config names some: otherwise the booth never opens an input device.
        if !settings.remote.devices.isEmpty {
            inputs.append(try KeyRemotes(settings: settings.remote, context: context))
        }
        let devices = BoothController.Devices(inputs: inputs, sound: sound, camera: camera, lights: gpio)
        let controller = try booth.controller(
            devices: devices, log: try eventsLog(settings),
            wallClock: WallClock(trust: settings.trustClock ? .always : .kernel))
        // Last, so the threads started above (libcamera's) keep the normal scheduler.
        if let warning = RealtimeScheduling.enter(priority: settings.realtimePriority) {
            Log.warning(warning)
        } else if settings.realtimePriority > 0 {
            Log.info("realtime: the event loop runs \(RealtimeScheduling.current())")
        }
        let code = try controller.run()
        // Photos saved, a stick unmounted, the events synced, systemd told STOPPING: the booth's shutdown is done,
        // and the process ends here. libcamera's, lttng-ust's and the runtime's exit handlers would only add time
        // the unit's stop timeout counts; the kernel closes the devices either way.
        Log.info("stopped (exit status \(code))")
        ProcessExit.now(code)
    }

    /// The session on the camera over USB libgphoto2 drives, if it does: `camera.backend = "gphoto2"` (open or not),
    /// or `auto` and a camera over USB that can take photos opened now (a phone in MTP mode is no camera). Auto
    /// decides once, at start, and asks libgphoto2 only when a USB device of the still-image class is plugged in; what
    /// it found that is no camera is said.
    static func usbCamera(_ settings: BoothSettings) -> GPhotoSession? {
        let session = GPhotoSession(selector: settings.camera, keepOnCard: settings.cameraKeepOnCard)
        switch settings.cameraBackend {
        case .libcamera: return nil
        case .gphoto2: return session
        case .auto:
            guard StillImageDevices.present() else { return nil }
            switch session.open() {
            case .success(let camera):
                Log.info("camera: \(camera.name) found over USB; libgphoto2 drives it (camera.backend = \"auto\")")
                return session
            case .failure(.noCamera(_, let found)) where !found.isEmpty:
                Log.info(
                    "camera: over USB libgphoto2 finds \(found.joined(separator: "; ")); libcamera drives the camera")
                return nil
            case .failure:
                return nil
            }
        }
    }

    /// The events output: `--events-json` when given, else the kept events (`keptEvents`).
    private func eventsLog(_ settings: BoothSettings) throws -> EventsLog {
        if let eventsJSON { return try EventsLog(path: eventsJSON) }
        return try Self.keptEvents(settings)
    }

    /// The rotated events file beside the state file (`booth.events_kb`, for `booth stats`), which the simulator
    /// keeps in its own folder too. A file that cannot be opened is a warning, never a reason not to start.
    static func keptEvents(_ settings: BoothSettings) throws -> EventsLog {
        guard settings.eventsLimit > 0 else { return try EventsLog(path: nil) }
        do {
            try PhotoStore.makeDirectories(settings.stateFolder)
            return try EventsLog(rotating: settings.eventsFile, limit: settings.eventsLimit)
        } catch {
            Log.warning("events: \(error); running without \(settings.eventsFile) (booth stats sees nothing new)")
            return try EventsLog(path: nil)
        }
    }
}
