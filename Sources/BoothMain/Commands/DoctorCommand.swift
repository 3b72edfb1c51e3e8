// DoctorCommand: `booth doctor`.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import CameraCapture
import GPIOInput
import GPhotoCapture
import KeyInput
import PhotoModel
import PhotoStore
import Printing
import SoundOutput

/// `booth doctor`: what the booth would use, what is there, and what is wrong, with the fix.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "List GPIO chips and lines, sound devices, cameras and storage, and check the config."
    )

    @OptionGroup var configFile: ConfigOption

    func run() throws {
        var problems = 0
        func problem(_ text: String) {
            problems += 1
            print("  ✗ \(text)")
        }

        print("Config")
        let settings: BoothSettings
        do {
            settings = try configFile.settings()
            print(
                "  ✓ \(configFile.source)"
            )
        } catch {
            problem("\(error)")
            settings = BoothSettings()
        }

        print("GPIO (libgpiod \(GPIOInventory.libgpiodVersion))")
        do {
            let chips = try GPIOInventory.chips()
            if chips.isEmpty { problem("no GPIO chips (/dev/gpiochip*): is this a Raspberry Pi?") }
            for chip in chips { print("  chip \(chip)") }
            let (chip, lines) = try GPIOInventory.lines(of: ChipSelector(configValue: settings.gpio.chip))
            print("  using \(chip.name) [\(chip.label)]")
            var roles: [(String, BoothSettings.Line)] = [
                ("button", settings.gpio.button), ("button LED", settings.gpio.buttonLED),
                ("knob A", settings.gpio.knobA),
                ("knob B", settings.gpio.knobB), ("knob switch", settings.gpio.knobSwitch),
            ]
            roles += settings.gpio.leds.enumerated().map { ("LED \($0.offset + 1)", $0.element) }
            if let flash = settings.gpio.flash { roles.append(("flash", flash)) }
            if let haptic = settings.gpio.haptic { roles.append(("haptic", haptic)) }
            if let cancel = settings.gpio.cancel { roles.append(("cancel", cancel)) }
            if let print = settings.gpio.print { roles.append(("print", print)) }
            for (role, line) in roles {
                let info = lines.first {
                    switch line {
                    case .offset(let n): $0.offset == n
                    case .name(let name): $0.name == name
                    }
                }
                guard let info else {
                    problem("\(role): \(line) is not a line of \(chip.name)")
                    continue
                }
                let holder = info.isUsed ? "held by \"\(info.consumer.isEmpty ? "unknown" : info.consumer)\"" : "free"
                print("  \(role): line \(info.offset) \"\(info.name)\" \(holder)")
            }
        } catch {
            problem("\(error)")
        }

        print("Sound")
        do {
            _ = try ALSAPlayback(
                device: settings.soundDevice, sampleRate: 48_000, channels: 2, clock: KernelClock())
            print("  ✓ \(settings.soundDevice) opens")
            if let warning = MixerCheck().playbackVolumeWarning(card: settings.soundDevice) { problem(warning) }
        } catch {
            problem("\(error)")
        }
        let library = SoundLibrary.load(folder: settings.soundsDirectory)
        print("  built-in: \(BoothSettings.builtInSounds.joined(separator: ", "))")
        print("  custom (\(settings.soundsDirectory)): \(library.sounds.map(\.name).joined(separator: ", "))")
        for rejection in library.rejections { problem("\(rejection)") }
        print("  favourites: \(settings.favourites.joined(separator: ", "))")

        print("Cameras")
        let cameras = LibcameraCamera.list()
        for camera in cameras {
            print("  \(camera)")
            for mode in camera.modes { print("    \(mode)") }
            if let mode = camera.streamedMode {
                print("    the booth streams \(mode) unless camera.width and camera.height say otherwise")
            } else {
                problem("camera \(camera) streams none of its modes above in a format the booth takes")
            }
        }
        // Each USB device libgphoto2 takes for a camera by its USB class is opened a moment to ask whether it can take
        // photos (a phone in MTP mode cannot), with nothing changed on it; one the running booth holds says busy.
        var usb: [GPhotoCamera.Found] = []
        var busy: Set<String> = []
        var state: [String: String] = [:]
        for found in GPhotoCamera.find() {
            guard found.canCapture else {
                usb.append(found)
                continue
            }
            let probe = GPhotoSession(selector: found.port, keepOnCard: false)
            switch probe.open() {
            case .failure(.noCamera):
                usb.append(GPhotoCamera.Found(model: found.model, port: found.port, canCapture: false))
            case .failure(.busy):
                busy.insert(found.port)
                usb.append(found)
            case .success:
                state[found.port] = Self.cameraState(battery: probe.battery, freeBytes: probe.freeBytes)
                if GPhotoSession.isLow(battery: probe.battery) {
                    problem("camera \(found): its battery is low (\(probe.battery ?? "?")): change or charge it")
                }
                usb.append(found)
            default:
                usb.append(found)
            }
            probe.close()
        }
        let chosen = GPhotoSession.pick(settings.camera, from: usb)
        let usesUSB = settings.cameraBackend != .libcamera && chosen != nil
        for found in usb {
            let note = usesUSB && found == chosen ? " (the booth takes photos with it)" : ""
            print("  USB: \(found.listed)\(note)")
            if let line = state[found.port] { print("    \(line)") }
            if busy.contains(found.port) {
                let holders =
                    CameraHolder.usbNode(port: found.port).map { node in
                        CameraHolder.find { $0 == node }
                    } ?? []
                let (text, isProblem) = Self.busyCamera(found.description, holders: holders)
                if isProblem { problem(text) } else { print("    \(text)") }
            }
        }
        switch settings.cameraBackend {
        case .libcamera where cameras.isEmpty: problem("libcamera sees no camera")
        case .gphoto2 where chosen == nil:
            problem("\(GPhotoError.noCamera(selector: settings.camera, found: usb.map(\.listed)))")
        case .auto where cameras.isEmpty && chosen == nil:
            problem("no camera: libcamera sees none, and libgphoto2 finds none over USB that can take photos")
        default: break
        }

        print("Storage")
        let storage = Self.storageReport(directory: settings.photosDirectory, reserve: settings.freeSpaceReserve)
        for line in storage.lines { print("  \(line)") }
        for text in storage.problems { problem(text) }

        print("Heat and power")
        let health = Self.healthReport(sysRoot: "/sys", hotLimit: settings.hotLimit)
        for line in health.lines { print("  \(line)") }
        for text in health.problems { problem(text) }

        print("Remotes")
        let remotes = Self.remoteReport(
            settings.remote, devices: (try? RemoteCommand.devices()) ?? [], bluetooth: Self.pairedBluetooth(settings))
        for line in remotes.lines { print("  \(line)") }
        for text in remotes.problems { problem(text) }

        print("Printer")
        let waiting = (try? PrintWaitingFile(path: settings.printWaitingFile).read())?.sorted(
            by: (try? PrintLedgerFile(path: settings.printLedgerFile).read()) ?? PrintLedger()
        ).pending
        let printer = Self.printerReport(
            mode: settings.printMode, client: CUPSClient(queue: settings.printQueue), copies: settings.printCopies,
            waiting: waiting?.count ?? 0)
        for line in printer.lines { print("  \(line)") }
        for text in printer.problems { problem(text) }
        let logo = Self.logoReport(mode: settings.printMode, path: settings.printLogo)
        for line in logo.lines { print("  \(line)") }
        for text in logo.problems { problem(text) }

        print("Clock")
        let clock = Self.clockReport(
            status: WallClock.status(), trusted: settings.trustClock, phone: WallClock.phoneMark(ClockMark.path))
        for line in clock.lines { print("  \(line)") }
        for text in clock.problems { problem(text) }

        print(problems == 0 ? "All good." : "\(problems) problem(s).")
        if problems > 0 { throw ExitCode(1) }
    }
}
