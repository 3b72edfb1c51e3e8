// DoctorCommand: `booth doctor`.
import ArgumentParser
import BoothCore
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

    /// The remotes `remote.devices` names, each connected (with its ids, bus and node) or not: a remote asleep is no
    /// problem, a press wakes it. A Bluetooth remote BlueZ has paired adds its address and its battery; a battery at
    /// or below `lowBattery` percent is a problem.
    static func remoteReport(
        _ remote: BoothSettings.Remote, devices: [InputDeviceList.Device], bluetooth: [BluetoothRemotes.Device] = []
    ) -> (lines: [String], problems: [String]) {
        guard !remote.devices.isEmpty else {
            return (["none (remote.devices; `booth remote list` shows the devices)"], [])
        }
        var problems: [String] = []
        let lines = remote.devices.map { selector in
            let paired = bluetooth.filter { RemoteCommand.isTaken($0, by: selector) }
            for device in paired {
                if let level = device.battery, level <= lowBattery {
                    problems.append("the remote \(device)'s battery is at \(level) %: change it")
                }
            }
            let over = paired.map { "; Bluetooth \($0.address)" + ($0.battery.map { ", battery \($0) %" } ?? "") }
                .joined()
            let found = devices.filter { selector.matches(name: $0.name, vendor: $0.vendor, product: $0.product) }
            guard !found.isEmpty else {
                if !paired.isEmpty {
                    return "\(selector): not connected (paired\(over); asleep or off: a key press wakes it)"
                }
                return "\(selector): not connected (asleep, off or not paired: a key press wakes a Bluetooth remote)"
            }
            return found.map { device in
                let ids = RemoteSelector.ids(vendor: device.vendor, product: device.product).description
                let node = device.eventNode.map { " at /dev/input/\($0)" } ?? ""
                return "✓ \"\(device.name)\" (\(ids), \(device.busName))\(node)"
            }.joined(separator: "; ") + over
        }
        return (lines, problems)
    }

    /// A remote's battery at or below this, in percent, is a problem: change it before the party.
    static let lowBattery = 20

    /// The Bluetooth devices BlueZ has paired, when a remote is configured and BlueZ answers; none otherwise (no
    /// BlueZ is no problem: a USB remote needs none).
    static func pairedBluetooth(_ settings: BoothSettings) -> [BluetoothRemotes.Device] {
        guard !settings.remote.devices.isEmpty, let bluetooth = try? BluetoothRemotes() else { return [] }
        return (try? bluetooth.paired()) ?? []
    }

    /// The logo the layouts print (`print.logo`, printing on): its size, or why the booth would not start with it.
    static func logoReport(mode: PrintMode, path: String) -> (lines: [String], problems: [String]) {
        guard mode != .off, !path.isEmpty else { return ([], []) }
        do throws(PrintError) {
            let logo = try PrintLogo.read(path)
            return (["logo \(path): \(logo.width) x \(logo.height) pixels"], [])
        } catch {
            return ([], [error.description])
        }
    }

    /// The printer when photos are printed (`print.mode`): CUPS's queue, its state and what its printer needs, and
    /// the `waiting` photos the booth keeps for CUPS (`PrintWaitingList`: those waiting now, or since it stopped).
    static func printerReport(
        mode: PrintMode, client: CUPSClient, copies: Int, waiting: Int = 0
    ) -> (lines: [String], problems: [String]) {
        guard mode != .off else { return (["printing off (print.mode)"], []) }
        let kept =
            waiting == 0
            ? []
            : [
                "\(waiting) photo\(waiting == 1 ? "" : "s") waiting for CUPS (print-waiting.txt): sent once CUPS "
                    + "answers while the booth runs"
            ]
        let queue: CUPSClient.QueueState
        do {
            queue = try client.queueState()
        } catch {
            return (kept, ["print.mode is \"\(mode.rawValue)\" but \(error)"])
        }
        let states: [Int32: String] = [3: "idle", 4: "printing", 5: "stopped"]
        let named = client.queue.isEmpty ? "\(queue.name) (CUPS's default queue)" : queue.name
        var lines =
            [
                "queue \(named): \(states[queue.state] ?? "state \(queue.state)"), \(copies) cop\(copies == 1 ? "y" : "ies") of each photo"
            ] + kept
        var problems: [String] = []
        if queue.isStopped {
            problems.append(
                "queue \(queue.name) is stopped: CUPS holds its jobs; `sudo cupsenable \(queue.name)` starts it again, and "
                    + "`sudo lpadmin -p \(queue.name) -o printer-error-policy=retry-job` keeps a printer error from stopping it"
            )
        }
        for need in queue.needs {
            problems.append("the printer of queue \(queue.name) needs attention: \(need.words) (\(need.reason))")
        }
        let needed = Set(queue.needs.map(\.reason))
        for reason in queue.reasons where reason != "paused" && !needed.contains(reason) {
            lines.append("the printer says: \(reason)")
        }
        // Ink, toner or ribbon, once the printer has told CUPS (it does while it prints).
        let supplies = (try? client.supplies()) ?? []
        if !supplies.isEmpty {
            let levels = supplies.map { supply -> String in
                switch supply.level {
                case nil: "\(supply.name) (level unknown)"
                case -3: "\(supply.name) (some left)"
                case let level?: "\(supply.name) \(level) %"
                }
            }
            lines.append("supplies: " + levels.joined(separator: ", "))
        }
        for supply in supplies where supply.level == 0 {
            problems.append(
                "the printer of queue \(queue.name) has no \(supply.name) left: replace it before the next print")
        }
        return (lines, problems)
    }

    /// What doctor says of an open camera over USB: "battery 50%, 9310 MiB free on its card" (MiB, as for storage).
    static func cameraState(battery: String?, freeBytes: Int64?) -> String? {
        var parts: [String] = []
        if let battery { parts.append("battery \(battery)") }
        if let freeBytes {
            parts.append("\(freeBytes / 1_048_576) MiB free on its card")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The camera `camera` is held by `holders` (the processes with its USB node open, those doctor may see): who,
    /// and how to free it; a problem unless the booth holds it (its service taking photos with it) or nobody visible
    /// does (another user's process: the booth's service, as a rule).
    static func busyCamera(_ camera: String, holders: [CameraHolder]) -> (text: String, problem: Bool) {
        guard !holders.isEmpty else {
            return (
                "in use by a program of another user (the booth's service, if it runs: `systemctl status "
                    + "heylook-booth`); `sudo booth doctor` names it", false
            )
        }
        if holders.allSatisfy({ $0.command == "booth" }) {
            let pids = holders.map { String($0.pid) }.joined(separator: ", ")
            return ("in use by the booth (pid \(pids)): `sudo systemctl stop heylook-booth` to try it here", false)
        }
        let fixes = holders.filter { $0.command != "booth" }.map { holder in
            let who = "\(holder.command) (pid \(holder.pid))"
            if holder.command.hasPrefix("gvfs") {
                return "\(who), the desktop's camera monitor: `systemctl --user stop gvfs-gphoto2-volume-monitor` "
                    + "(on a booth, `sudo apt remove gvfs-backends`)"
            }
            return "\(who): close it"
        }
        return (
            "camera \(camera) is in use by \(fixes.joined(separator: "; ")); the booth cannot take photos with it", true
        )
    }

    /// What the photo store holds, read only: doctor is often run as root, and a file it created
    /// there (index, booth id, lock, `discarded/`) would belong to root and stop the booth writing it.
    /// Store files owned by someone else than the folder's owner are problems, with the fix.
    static func storageReport(directory: String, reserve: Int64) -> (lines: [String], problems: [String]) {
        let folderOwner: UInt32
        do {
            folderOwner = try FileOwner.userID(of: directory)
        } catch {
            let reason = ErrnoText.describe(error.errno)
            return ([], ["\(directory): \(reason): the booth creates it at start (as its own user)"])
        }
        var problems: [String] = []
        let owner = userName(folderOwner)
        let entries: [PhotoIndex.Entry]
        do {
            entries = try PhotoStore.inspect(directory: directory)
        } catch {
            return (["\(directory) (owner \(owner))"], ["\(error)"])
        }
        let free = PhotoStore.freeBytes(at: directory)
        let kept = entries.filter { $0.state == .kept }.count
        let lines = [
            "\(directory) (owner \(owner)): \(kept) photos, \(entries.count - kept) discarded, "
                + (free.map { "\($0 / 1_048_576) MiB free" } ?? "free space unknown")
        ]
        if let free, free - 8 * 1024 * 1024 < reserve {
            problems.append("below the free-space reserve: export and remove photos")
        }
        for name in ["discarded", PhotoStore.indexName, PhotoStore.boothIDName, PhotoStore.lockName] {
            guard let uid = try? FileOwner.userID(of: "\(directory)/\(name)", followingLinks: false),
                uid != folderOwner
            else { continue }
            problems.append(
                "\(directory)/\(name) belongs to \(userName(uid)), not \(owner): the booth cannot write it;"
                    + " fix: sudo chown -R \(owner): \(directory)")
        }
        return (lines, problems)
    }

    /// The SoC temperature and the Pi firmware's power flags, as the booth reads them; too hot or too low
    /// a supply now is a problem, one that has occurred since boot a note.
    static func healthReport(sysRoot: String, hotLimit: Int64) -> (lines: [String], problems: [String]) {
        let sources = HealthMonitor.sources(sysRoot: sysRoot)
        let reading = HealthMonitor.read(sources)
        var lines: [String] = []
        var problems: [String] = []
        if let temperature = reading.temperature, let path = sources.temperature {
            lines.append("SoC \(celsius(temperature)) (\(path); warns from \(celsius(hotLimit)))")
        } else {
            lines.append("no thermal zone: the temperature is not watched")
        }
        if let flags = reading.throttled {
            let words = reading.flagWords.isEmpty ? "none" : reading.flagWords.joined(separator: ", ")
            lines.append("firmware flags 0x\(String(flags, radix: 16)): \(words)")
        } else {
            lines.append("no firmware power flags (not a Raspberry Pi): under-voltage is not watched")
        }
        if reading.overheating(limit: hotLimit) {
            problems.append("too hot: give the Pi a heatsink or a fan, and the box air")
        }
        if reading.underVoltage {
            problems.append(
                "under-voltage now: use the official power supply (5.1 V: 2.5 A for a Pi 3 or Zero 2 W, 3 A for a Pi 4, 5 A for a Pi 5) and a short cable"
            )
        }
        return (lines, problems)
    }

    /// Whether photos get dates: a clock not synchronised (no network time yet) is a note, not a
    /// problem (a booth without network is fine; its photos are undated); one whose status cannot be
    /// read is a problem.
    static func clockReport(
        status: WallClock.Status, trusted: Bool, phone: ClockMark? = nil
    ) -> (lines: [String], problems: [String]) {
        if status != .synchronised, !trusted, let phone {
            return (
                [
                    "✓ set from a phone (\(phone.phone)) by the gallery this boot, \(phone.setTo - phone.was) s "
                        + "forward: photos are dated"
                ], []
            )
        }
        switch (status, trusted) {
        case (.synchronised, _):
            return (["✓ synchronised: photos are dated"], [])
        case (_, true):
            return (["✓ trusted (booth.trust_clock = true): photos are dated with whatever the clock says"], [])
        case (.unsynchronised, false):
            return (
                [
                    "! not synchronised (no network time yet): photos are undated, named by number, and go to the "
                        + "stick's \(PhotoName.undated) folder; connect the booth to a network, or with a battery-backed "
                        + "clock set booth.trust_clock = true"
                ], []
            )
        case (.unknown(let text), false):
            return (
                [], ["clock status unreadable (\(text)): photos are undated; the service needs the adjtimex read"]
            )
        }
    }

    private static func celsius(_ millidegrees: Int64) -> String {
        let tenths = millidegrees.magnitude / 100
        return "\(millidegrees < 0 ? "-" : "")\(tenths / 10).\(tenths % 10) °C"
    }

    private static func userName(_ uid: UInt32) -> String {
        FileOwner.userName(uid) ?? "uid \(uid)"
    }
}
