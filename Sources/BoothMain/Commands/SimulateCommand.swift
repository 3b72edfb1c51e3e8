// SimulateCommand: `booth simulate`.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem

/// `booth simulate`: the real loop and core with simulated hardware, interactive or scripted.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the booth with simulated hardware (interactive in a terminal, or from a script)."
    )

    @Option(
        help:
            "A script of commands (press, long-press, knob +N, knob -N, knob-press, knob-long-press, cancel, print, wait SECONDS, quit); '-' for standard input."
    )
    var script: String?

    @Option(
        name: .customLong("events-json"), help: "Write one JSON object per event to this file; '-' for standard output."
    )
    var eventsJSON: String?

    @Option(help: "Where photos are saved (default: ~/.local/share/heylook-sim/photos).")
    var photos: String?

    @OptionGroup var configFile: ConfigOption

    @Flag(help: "Virtual time: waits end at once whenever nothing else is running (soaks, long scripts).")
    var fast = false

    @Option(
        help:
            "Play the sounds on this ALSA device instead of only timing them (interactive: 'default' when it opens)."
    )
    var sound: String?

    @Option(
        help:
            "The camera: simulated (a test pattern), or gphoto2 (the camera over USB that the config's camera.id names, through libgphoto2: a photographer's camera tried without the booth's buttons)."
    )
    var camera: CameraChoice = .simulated

    /// The simulator's `--camera`.
    enum CameraChoice: String, ExpressibleByArgument, CaseIterable {
        case simulated, gphoto2
    }

    @Flag(
        name: .customLong("camera-stall"),
        help: "The simulated camera never delivers a frame (tests the capture timeout).")
    var cameraStall = false

    @Option(help: "The light level (lux) the simulated camera reports, which flash auto uses; negative: none.")
    var lux: Double = 300

    @Option(
        help:
            "Whether the clock counts as synchronised, so photos are dated: system (the kernel says), synchronised or unsynchronised."
    )
    var clock: ClockChoice = .system

    /// The simulator's `--clock`.
    enum ClockChoice: String, ExpressibleByArgument, CaseIterable {
        case system, synchronised, unsynchronised

        /// The wall clock's trust this choice gives (`booth.trust_clock` still trusts it always).
        func trust(settings: BoothSettings) -> WallClock.Trust {
            if settings.trustClock { return .always }
            switch self {
            case .system: return .kernel
            case .synchronised: return .always
            case .unsynchronised: return .never
            }
        }
    }

    func run() throws {
        SignalSource.block()
        if camera == .gphoto2 {
            if fast { throw BoothFailure("--fast is virtual time, and a camera over USB takes real time: drop --fast") }
            if cameraStall {
                throw BoothFailure("--camera-stall stalls the simulated camera: drop it, or --camera gphoto2")
            }
        }
        var settings = try configFile.settings()
        // Photos go to the simulator's folder (or --photos). Without a config file of its own, the knob's choices
        // and the kept events go there too, so `booth photos` and `booth stats` show what it did (SimulatorStore).
        let own = SimulatorStore.applied(to: settings)
        settings.photosDirectory = photos.map(absolute) ?? own.photosDirectory
        let ownFolder = configFile.config == nil
        if ownFolder { settings.stateFile = own.stateFile }

        let parsedScript: SimulationScript?
        if let script {
            let text: String?
            if script == "-" {
                text = try readStandardInput()
            } else {
                text = try ConfigLoader.readText(script)
                guard text != nil else { throw BoothFailure("script \(script) does not exist") }
            }
            do {
                parsedScript = try SimulationScript(parsing: text ?? "")
            } catch {
                throw BoothFailure("\(script == "-" ? "standard input" : script): \(error)")
            }
        } else {
            guard TerminalInput.isTerminal else {
                throw BoothFailure(
                    "standard input is not a terminal: pass --script FILE (or --script - to read commands from standard input)"
                )
            }
            parsedScript = nil
        }

        let booth = try BoothAssembly(settings: settings, virtualTime: fast)
        let log =
            if let eventsJSON { try EventsLog(path: eventsJSON) } else if ownFolder {
                try RunCommand.keptEvents(settings)
            } else { try EventsLog(path: nil) }
        if fast {
            guard parsedScript != nil, sound == nil else {
                throw BoothFailure("--fast needs --script and the simulated sound (no --sound)")
            }
        }
        let context = booth.context
        let lights = SimulatedLights(ledCount: settings.gpio.leds.count)
        let input: any InputDevice
        var terminal: TerminalInput?
        defer { terminal?.restore() }
        if let parsedScript {
            input = ScriptInput(
                context, script: parsedScript, longPress: settings.gpio.longPress, remoteKeys: settings.remote.roles)
        } else {
            let view = try TerminalInput(context, longPress: settings.gpio.longPress, lights: lights)
            log.observers.append { type, _, fields in view.observe(type, fields) }
            terminal = view
            input = view
        }
        var soundDevice: any SoundDevice
        if let sound {
            soundDevice = try ALSASound(context, device: sound, gainDecibels: settings.soundGainDB, custom: [])
        } else if parsedScript == nil {
            let (device, note) = try Self.interactiveSound(context, gainDecibels: settings.soundGainDB)
            if let note { Log.info(note) }
            soundDevice = device
        } else {
            soundDevice = SilentSound.builtIn(context)
        }
        var inputs = [input]
        // A remote the config names works in the interactive simulator as at the booth (a virtual clock is not the
        // kernel's, which its keys carry).
        if !fast, parsedScript == nil, !settings.remote.devices.isEmpty {
            inputs.append(try KeyRemotes(settings: settings.remote, context: context))
        }
        let devices = BoothController.Devices(
            inputs: inputs,
            sound: soundDevice,
            camera: camera == .gphoto2
                ? try GPhotoDevice(context, selector: settings.camera, keepOnCard: settings.cameraKeepOnCard)
                : SimulatedCamera(context, stalled: cameraStall, lightLevel: lux >= 0 ? lux : nil),
            lights: lights)
        let controller = try booth.controller(
            devices: devices, log: log,
            // Virtual time (--fast) is not the kernel's: its moments would date nothing rightly.
            wallClock: WallClock(trust: clock.trust(settings: settings), boot: fast ? nil : BootID.current()))
        let code = try controller.run()
        if code != 0 { throw ExitCode(code) }
    }

    /// The interactive simulator's sound: ALSA's default device when it opens, else timed silence and
    /// a note saying so (a machine without a sound card, a container).
    static func interactiveSound(
        _ context: DeviceContext, gainDecibels: Double, device: String = "default"
    ) throws -> (any SoundDevice, note: String?) {
        if let problem = ALSASound.problem(opening: device) {
            return (
                SilentSound.builtIn(context),
                "sound: \(problem): the simulator is silent, each sound timed as if played (--sound DEVICE picks another)"
            )
        }
        return (try ALSASound(context, device: device, gainDecibels: gainDecibels, custom: []), nil)
    }

    private func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = WorkingDirectory.current() else { return path }
        return "\(cwd)/\(path)"
    }

    private func readStandardInput() throws -> String {
        do {
            let bytes = try StandardStream.input.readAll(limit: 4 << 20)
            return String(decoding: bytes, as: UTF8.self)
        } catch {
            throw BoothFailure("standard input: \(error)")
        }
    }
}
