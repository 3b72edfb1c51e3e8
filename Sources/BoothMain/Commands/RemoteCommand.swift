// RemoteCommand: `booth remote`, the input devices a remote can be, and the keys one sends.
import ArgumentParser
import BoothCore
import BoothRuntime
import BoothSystem
import BoothTime
import KeyInput

/// `booth remote list` shows every input device the kernel has (name, ids, bus, event node), which the config takes as
/// remotes, and the Bluetooth devices BlueZ has paired; `booth remote keys` shows the keys devices send, by the names
/// the config lists them by, and what each does at the booth; `booth remote pair|forget` pairs a Bluetooth remote
/// through BlueZ, or forgets one.
struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract:
            "Remotes, keypads and pedals: list the input devices, pair or forget a Bluetooth remote, or show the keys "
            + "one sends.",
        subcommands: [List.self, Pair.self, Forget.self, Keys.self, UdevMatch.self]
    )

    /// The kernel's list of input devices.
    static let devicesFile = "/proc/bus/input/devices"

    static func devices() throws -> [InputDeviceList.Device] {
        do {
            guard let bytes = try FileReading.contents(of: devicesFile, limit: 1 << 20) else {
                throw BoothFailure("no \(devicesFile): this kernel has no input devices (is it Linux?)")
            }
            return InputDeviceList(parsing: String(decoding: bytes, as: UTF8.self)).devices
        } catch let failure as FileReading.Failure {
            throw BoothFailure("\(failure.systemError(reading: devicesFile))")
        }
    }

    static func isRemote(_ device: InputDeviceList.Device, _ settings: BoothSettings) -> Bool {
        settings.remote.devices.contains {
            $0.matches(name: device.name, vendor: device.vendor, product: device.product)
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the input devices: name, vendor:product, bus, event node, and which the config takes.")

        @OptionGroup var configFile: ConfigOption

        func run() throws {
            let settings = try configFile.settings()
            let devices = try RemoteCommand.devices()
            for device in devices {
                let ids = RemoteSelector.ids(vendor: device.vendor, product: device.product).description
                let node = device.eventNode.map { "/dev/input/\($0)" } ?? "(no event node)"
                let taken = RemoteCommand.isRemote(device, settings) ? "  remote (remote.devices)" : ""
                print("\"\(device.name)\"  \(ids)  \(device.busName)  \(node)\(taken)")
            }
            if devices.isEmpty { print("no input devices") }
            let missing = settings.remote.devices.filter { selector in
                !devices.contains { selector.matches(name: $0.name, vendor: $0.vendor, product: $0.product) }
            }
            for selector in missing {
                print(
                    "remote.devices names \(selector), which is not connected (a Bluetooth remote asleep or unpaired?)")
            }
            for line in RemoteCommand.bluetoothLines(settings) { print(line) }
        }
    }

    /// The Bluetooth devices BlueZ has paired, each with its address, whether it is connected, its battery and whether
    /// the config takes it; or why there are none to show (no BlueZ, no controller).
    static func bluetoothLines(_ settings: BoothSettings) -> [String] {
        let paired: [BluetoothRemotes.Device]
        do {
            let bluetooth = try BluetoothRemotes()
            let state = try bluetooth.state()
            guard state.controller != nil else { return ["Bluetooth: no controller"] }
            paired = state.devices.filter(\.paired)
        } catch .noBlueZ {
            return ["Bluetooth: BlueZ is not running"]
        } catch {
            return ["Bluetooth: \(error)"]
        }
        guard !paired.isEmpty else { return ["Bluetooth: nothing paired (sudo booth remote pair)"] }
        return ["Bluetooth, paired:"]
            + paired.map { device in
                let taken =
                    settings.remote.devices.contains { isTaken(device, by: $0) } ? "  remote (remote.devices)" : ""
                return "  \(device)  \(bluetoothState(device))\(taken)"
            }
    }

    /// Connected or not, and the battery's level when the remote reports one.
    static func bluetoothState(_ device: BluetoothRemotes.Device) -> String {
        (device.connected ? "connected" : "not connected") + (device.battery.map { ", battery \($0) %" } ?? "")
    }

    /// Whether `selector` takes the Bluetooth `device`: by its name, or by the ids of its Device ID record.
    static func isTaken(_ device: BluetoothRemotes.Device, by selector: RemoteSelector) -> Bool {
        switch selector {
        case .name: selector.matches(name: device.name, vendor: 0, product: 0)
        case .ids(let vendor, let product): device.vendor == vendor && device.product == product
        }
    }

    /// Prints `line` and writes it out at once: these commands are watched as they run, through a pipe or a file too
    /// (where stdio would hold the lines until the command ends).
    static func say(_ line: String) {
        print(line)
        StandardStream.flushAll()
    }

    struct Pair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Pair a Bluetooth remote put in pairing mode (through BlueZ; run with sudo), then show the key it sends."
        )

        @OptionGroup var configFile: ConfigOption

        @Argument(help: "The remote's name or address, when more than one is in pairing mode.")
        var remote: String?

        @Option(help: "How long to look for the remote, in seconds.")
        var seconds: Double = 30

        @Option(name: .customLong("key-seconds"), help: "How long to wait for a key press after pairing, in seconds.")
        var keySeconds: Double = 30

        func run() throws {
            let settings = try configFile.settings()
            let bluetooth = try BluetoothRemotes()
            let device = try bluetooth.pair(wanted: remote, within: .seconds(seconds)) { RemoteCommand.say($0) }
            RemoteCommand.say("paired: \(device)  \(RemoteCommand.bluetoothState(device))")
            if !settings.remote.devices.contains(where: { RemoteCommand.isTaken(device, by: $0) }) {
                RemoteCommand.say(
                    "The booth does not take it yet: add it to remote.devices in the config "
                        + "(devices = [\"\(device.name)\"] under [remote]), then run "
                        + "`sudo udevadm trigger --subsystem-match=input` and restart the booth.")
            }
            guard keySeconds > 0 else { return }
            try Keys.firstKey(of: device.name, within: .seconds(keySeconds), roles: settings.remote.roles)
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Forget a paired Bluetooth remote (through BlueZ; run with sudo).")

        @Argument(help: "The remote's name or address, as `booth remote list` shows it.")
        var remote: String

        func run() throws {
            let device = try BluetoothRemotes().forget(remote)
            print("forgotten: \(device); pair it again with `sudo booth remote pair`")
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Show the keys input devices send, by name, and what each does at the booth (read only; needs sudo for "
                + "devices the booth's group may not read).")

        @OptionGroup var configFile: ConfigOption

        @Option(help: "How long to listen, in seconds.")
        var seconds: Double = 30

        @Option(help: "Listen to this device only (its name, vendor:product or event node); default: every device.")
        var device: String?

        func run() throws {
            let settings = try configFile.settings()
            let roles = settings.remote.roles
            var open: [KeyDevice] = []
            var refused: [String] = []
            for entry in try RemoteCommand.devices() {
                guard let node = entry.eventNode else { continue }
                let path = "/dev/input/\(node)"
                if let device, device != path,
                    RemoteSelector(configValue: device)?.matches(
                        name: entry.name, vendor: entry.vendor, product: entry.product) != true
                {
                    continue
                }
                do {
                    open.append(try KeyDevice(path: path))
                } catch {
                    refused.append("\"\(entry.name)\": \(error)")
                }
            }
            for line in refused { Log.warning(line) }
            guard !open.isEmpty else {
                throw BoothFailure(
                    "no input device to listen to" + (device.map { " (none is \($0))" } ?? "")
                        + "; `booth remote list` shows them, and `sudo booth remote keys` reads those the booth may not"
                )
            }
            RemoteCommand.say(
                "Press the remote's keys; listening \(Int(seconds)) s to: \(open.map { "\"\($0.name)\"" }.joined(separator: ", "))"
            )
            _ = try Self.listen(to: open, for: .seconds(seconds), roles: roles, untilFirst: false)
        }

        /// Prints each key `devices` send, by name, with what it does at the booth, for `duration` or, `untilFirst`,
        /// until the first. Returns whether a key was pressed.
        static func listen(
            to devices: [KeyDevice], for duration: Duration, roles: [KeyCode: RemoteKeyRole], untilFirst: Bool
        )
            throws -> Bool
        {
            var pressed = false
            let loop = try EventLoop()
            for device in devices {
                try loop.register(readable: device.fileDescriptor) {
                    guard let events = try? device.read() else {
                        RemoteCommand.say("\"\(device.name)\" went away")
                        loop.unregister(device.fileDescriptor)
                        return
                    }
                    for event in events where event.action == .pressed {
                        let key = KeyCode(code: event.code)
                        let does =
                            roles[key].map { "the booth's \(Self.control($0)) (remote.\($0.configKey))" }
                            ?? "nothing at the booth (list it in one of the remote.*_keys)"
                        RemoteCommand.say("\"\(device.name)\": \(key.name) → \(does)")
                        pressed = true
                        if untilFirst { loop.stop() }
                    }
                }
            }
            loop.schedule(at: loop.now().advanced(by: duration)) { loop.stop() }
            try loop.run()
            return pressed
        }

        /// After pairing: waits at most `within` for the input devices the kernel makes of the remote `name` (their
        /// names start with it) and prints the first key it sends.
        static func firstKey(of name: String, within: Duration, roles: [KeyCode: RemoteKeyRole]) throws {
            let selector = RemoteSelector.name(name)
            let clock = KernelClock()
            let deadline = clock.now().advanced(by: within)
            var nodes: [String] = []
            while nodes.isEmpty {
                nodes = try RemoteCommand.devices().filter {
                    selector.matches(name: $0.name, vendor: $0.vendor, product: $0.product)
                }.compactMap { $0.eventNode.map { "/dev/input/\($0)" } }
                guard nodes.isEmpty else { break }
                guard clock.now() < deadline else {
                    RemoteCommand.say(
                        "No input device named \"\(name)\" appeared in \(within.spoken): press a key on the remote to "
                            + "connect it, then `sudo booth remote keys`.")
                    return
                }
                ThreadSleep.pause(for: .milliseconds(250))
            }
            let devices = try nodes.map { try KeyDevice(path: $0) }
            RemoteCommand.say("Press a key on \"\(name)\" to see what it does at the booth…")
            let left = max(.milliseconds(100), deadline - clock.now())
            if try !listen(to: devices, for: left, roles: roles, untilFirst: true) {
                RemoteCommand.say("No key in \(within.spoken): `sudo booth remote keys` shows them at any time.")
            }
        }

        static func control(_ role: RemoteKeyRole) -> String {
            switch role {
            case .press: "button"
            case .retake: "button, held (a retake)"
            case .print: "print button"
            case .knobLeft: "knob, anticlockwise"
            case .knobRight: "knob, clockwise"
            case .knobPress: "knob's switch"
            }
        }
    }

    /// What the udev rule (deploy/udev/99-heylook-remote.rules) runs for each input event node: exit 0 when the config
    /// names the device as a remote (the rule then gives the booth's group that node alone), 1 otherwise. The device is
    /// udev's (DEVPATH); its name and ids are read from sysfs.
    struct UdevMatch: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "udev-match",
            abstract: "For the udev rule: whether the input device DEVPATH names is one of remote.devices (exit 0).",
            shouldDisplay: false)

        @OptionGroup var configFile: ConfigOption

        @Option(help: "Where sysfs is mounted.")
        var sys = "/sys"

        func run() throws {
            guard let devpath = Environment.value("DEVPATH"), !devpath.isEmpty else {
                throw BoothFailure(
                    "no DEVPATH: udev runs this for an input device (deploy/udev/99-heylook-remote.rules)")
            }
            let settings = try configFile.settings()
            guard !settings.remote.devices.isEmpty else { throw ExitCode(1) }
            func attribute(_ name: String) -> String? {
                guard let bytes = try? FileReading.contents(of: "\(sys)\(devpath)/device/\(name)", limit: 4096) else {
                    return nil
                }
                return String(decoding: bytes, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            }
            guard let name = attribute("name"), let vendor = attribute("id/vendor").flatMap({ UInt16($0, radix: 16) }),
                let product = attribute("id/product").flatMap({ UInt16($0, radix: 16) })
            else { throw ExitCode(1) }
            let device = InputDeviceList.Device(name: name, vendor: vendor, product: product)
            guard RemoteCommand.isRemote(device, settings) else { throw ExitCode(1) }
        }
    }
}
