import ArgumentParser
import BoothCore
import CameraCapture
import GPIOInput
import Glibc
import PhotoStore
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
            if let cancel = settings.gpio.cancel { roles.append(("cancel", cancel)) }
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
            _ = try ALSAPlayback(device: settings.soundDevice, sampleRate: 48_000, channels: 2)
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
        if cameras.isEmpty { problem("libcamera sees no camera") }
        for camera in cameras {
            print("  \(camera)")
            for mode in camera.modes { print("    \(mode)") }
        }

        print("Storage")
        do {
            let store = try PhotoStore(
                directory: settings.photosDirectory, reserve: settings.freeSpaceReserve, removingLeftovers: false)
            let free = store.freeBytes().map { "\($0 / 1_048_576) MiB free" } ?? "free space unknown"
            print("  \(settings.photosDirectory): \(try store.keptPhotos().count) photos, \(free)")
            if !store.hasRoom() { problem("below the free-space reserve: export and remove photos") }
        } catch {
            problem("\(error)")
        }

        print(problems == 0 ? "All good." : "\(problems) problem(s).")
        if problems > 0 { throw ExitCode(1) }
    }
}
