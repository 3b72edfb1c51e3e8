// BluetoothRemotes: Bluetooth remotes through BlueZ's D-Bus API: the controller, the devices it knows, pairing, forgetting.
import BoothSystem
import BoothTime
import Glibc

/// BlueZ (bluetoothd) on the system bus, as `booth remote pair|forget|list` and `booth doctor` use it: the first
/// controller (org.bluez.Adapter1), the devices it knows (org.bluez.Device1, with org.bluez.Battery1's level), and
/// pairing one remote put in pairing mode (discover, Pair, Trusted, Connect). Pairing registers no agent, so BlueZ
/// pairs as a device with no display and no keys ("just works"), as selfie remotes, clickers and pedals pair; a
/// keyboard that asks for a passkey to be typed is refused, with the fix. Blocking calls: for commands, never the loop.
public struct BluetoothRemotes {
    /// A controller: a Bluetooth adapter.
    public struct Controller: Equatable, Sendable {
        public let path: String
        public let address: String
        public let powered: Bool
    }

    /// A device BlueZ knows: paired, or seen while discovering.
    public struct Device: Equatable, Sendable, CustomStringConvertible {
        public let path: String
        public let address: String
        /// Its alias (its own name unless renamed), else its address.
        public let name: String
        public let paired: Bool
        public let trusted: Bool
        public let connected: Bool
        /// Seen by the current discovery (BlueZ gives RSSI only then).
        public let inRange: Bool
        /// Battery level in percent (org.bluez.Battery1), when the device reports one.
        public let battery: Int?
        /// Vendor and product ids from its Device ID record (Modalias "bluetooth:vXXXXpYYYY…" or "usb:v…p…").
        public let vendor: UInt16?
        public let product: UInt16?
        /// Whether it is an input device: the HID or HID-over-GATT service, an "input-…" icon, an appearance of HID's
        /// category, or the peripheral major class.
        public let isInput: Bool

        public init(
            path: String, address: String, name: String, paired: Bool, trusted: Bool, connected: Bool, inRange: Bool,
            battery: Int?, vendor: UInt16?, product: UInt16?, isInput: Bool
        ) {
            self.path = path
            self.address = address
            self.name = name
            self.paired = paired
            self.trusted = trusted
            self.connected = connected
            self.inRange = inRange
            self.battery = battery
            self.vendor = vendor
            self.product = product
            self.isInput = isInput
        }

        public var description: String { "\"\(name)\" (\(address))" }
    }

    /// Why BlueZ could not do what was asked, each with its fix.
    public enum Failure: Error, CustomStringConvertible, Equatable {
        /// Nobody owns org.bluez on the system bus.
        case noBlueZ
        /// BlueZ runs, with no controller.
        case noController
        /// BlueZ or the bus refused: not root.
        case notAllowed(String)
        /// The controller could not be switched on (rfkill, or the firmware).
        case cannotPowerOn(String)
        /// Nothing that looks like a remote was found while discovering for `seconds`; `wanted` names what was asked.
        case nothingFound(within: Duration, wanted: String?)
        /// More than one remote in pairing mode at once.
        case ambiguous([Device])
        /// Pair failed (BlueZ's error).
        case pairingFailed(Device, String)
        /// `forget` named no device BlueZ has paired.
        case unknown(String, paired: [Device])
        /// Another failure of a call.
        case bus(SystemBus.Failure)

        public var description: String {
            switch self {
            case .noBlueZ:
                "BlueZ is not running (nobody owns org.bluez on the system bus). Fix: sudo apt install bluez; "
                    + "sudo systemctl enable --now bluetooth"
            case .noController:
                "BlueZ has no Bluetooth controller. Fix: a Pi 3, 4, 5 or Zero W has one built in: check that "
                    + "config.txt has no dtoverlay=disable-bt and `rfkill list`; elsewhere plug in a USB Bluetooth "
                    + "adapter"
            case .notAllowed(let detail):
                "BlueZ refused (\(detail)). Fix: run it as root: sudo booth remote …"
            case .cannotPowerOn(let detail):
                "the Bluetooth controller cannot be switched on (\(detail)). Fix: sudo rfkill unblock bluetooth"
            case .nothingFound(let within, let wanted):
                (wanted.map { "no Bluetooth device \($0) found in \(within.spoken)" }
                    ?? "no remote in pairing mode found in \(within.spoken)")
                    + ". Fix: put the remote in pairing mode (hold its button, or its power switch, until its light "
                    + "blinks fast), keep it near the booth and run the command again"
            case .ambiguous(let devices):
                "more than one remote is in pairing mode: \(devices.map(\.description).joined(separator: ", ")). "
                    + "Fix: name one, e.g. sudo booth remote pair \"\(devices.first?.name ?? "")\""
            case .pairingFailed(let device, let detail):
                "pairing \(device) failed (\(detail)). Fix: put it in pairing mode again and rerun; a keyboard that "
                    + "asks for a code to type pairs with bluetoothctl (pair, then trust)"
            case .unknown(let wanted, let paired):
                "no paired Bluetooth device is \(wanted). "
                    + (paired.isEmpty
                        ? "None is paired."
                        : "Paired: \(paired.map(\.description).joined(separator: ", ")).")
            case .bus(let failure):
                "BlueZ: \(failure)"
            }
        }
    }

    static let service = "org.bluez"
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let batteryInterface = "org.bluez.Battery1"

    private let bus: SystemBus

    public init(bus: SystemBus) { self.bus = bus }

    /// Connects to the system bus's BlueZ.
    public init() throws(Failure) {
        do { bus = try SystemBus() } catch { throw .noBlueZ }
    }

    /// The first controller and every device BlueZ knows.
    public func state() throws(Failure) -> (controller: Controller?, devices: [Device]) {
        let objects: [String: [String: [String: String]]]
        do { objects = try bus.managedObjects(Self.service) } catch { throw Self.failure(error) }
        let controller = objects.keys.sorted().lazy.compactMap { path -> Controller? in
            guard let adapter = objects[path]?[Self.adapterInterface] else { return nil }
            return Controller(path: path, address: adapter["Address"] ?? "", powered: adapter["Powered"] == "true")
        }.first
        let devices = objects.keys.sorted().compactMap { path -> Device? in
            guard let device = objects[path]?[Self.deviceInterface] else { return nil }
            return Self.device(path: path, device, battery: objects[path]?[Self.batteryInterface])
        }
        return (controller, devices)
    }

    /// The devices BlueZ has paired.
    public func paired() throws(Failure) -> [Device] { try state().devices.filter(\.paired) }

    /// Pairs, trusts and connects the remote in pairing mode (or the device `wanted` names: its name or address):
    /// switches the controller on, discovers for at most `within` (asking BlueZ what it found every `polling`), and
    /// stops discovering before it returns. A device already paired is trusted and connected
    /// again. `progress` is told each step. Returns the device as BlueZ has it after.
    public func pair(
        wanted: String?, within: Duration, polling: Duration = .milliseconds(250), progress: (String) -> Void
    ) throws(Failure) -> Device {
        let (found, known) = try state()
        guard let controller = found else { throw .noController }
        if !controller.powered {
            progress("switching the Bluetooth controller on")
            do {
                try bus.setProperty(Self.service, controller.path, Self.adapterInterface, "Powered", to: "b:true")
            } catch {
                if error.code == .permissionDenied { throw .notAllowed(error.detail) }
                throw .cannotPowerOn(error.detail)
            }
        }
        if let wanted, let device = known.first(where: { $0.paired && Self.device($0, is: wanted) }) {
            progress("\(device) is paired already")
            return try trustAndConnect(device, progress: progress)
        }
        progress(
            "looking for \(wanted.map { "\"\($0)\"" } ?? "a remote in pairing mode") for \(within.spoken) "
                + "(hold its button until its light blinks fast)")
        do { try call(controller.path, Self.adapterInterface, "StartDiscovery") } catch {
            if case .bus(let failure) = error, failure.detail.contains("org.bluez.Error.InProgress") {
                // Discovering already (bluetoothctl scan on): what it finds is seen here too.
            } else {
                throw error
            }
        }
        let chosen: Device
        do {
            chosen = try discover(wanted: wanted, within: within, polling: polling)
        } catch {
            try? call(controller.path, Self.adapterInterface, "StopDiscovery")
            throw error
        }
        // Pairing while discovering is slow and fails with some controllers: BlueZ's own tools stop first.
        try? call(controller.path, Self.adapterInterface, "StopDiscovery")
        progress("pairing \(chosen)")
        do { try call(chosen.path, Self.deviceInterface, "Pair") } catch {
            guard case .bus(let failure) = error else { throw error }
            if failure.detail.contains("org.bluez.Error.AlreadyExists") {
                progress("\(chosen) is paired already")
            } else if failure.code == .permissionDenied {
                throw .notAllowed(failure.detail)
            } else {
                throw .pairingFailed(chosen, failure.detail)
            }
        }
        return try trustAndConnect(chosen, progress: progress)
    }

    /// Forgets the paired device `wanted` names (its name or address): BlueZ removes its pairing (RemoveDevice).
    /// Returns the device forgotten.
    public func forget(_ wanted: String) throws(Failure) -> Device {
        let (found, devices) = try state()
        guard let controller = found else { throw .noController }
        let paired = devices.filter(\.paired)
        guard let device = paired.first(where: { Self.device($0, is: wanted) }) else {
            throw .unknown("\"\(wanted)\"", paired: paired)
        }
        do {
            try bus.call(
                Self.service, controller.path, Self.adapterInterface, "RemoveDevice", signature: "o", [device.path])
        } catch { throw Self.failure(error) }
        return device
    }

    /// Marks `device` trusted (it may reconnect by itself, as a remote waking does) and connects it; a connection
    /// refused is told, not thrown: a remote asleep connects when a key wakes it.
    private func trustAndConnect(_ device: Device, progress: (String) -> Void) throws(Failure) -> Device {
        do {
            try bus.setProperty(Self.service, device.path, Self.deviceInterface, "Trusted", to: "b:true")
        } catch { throw Self.failure(error) }
        do { try call(device.path, Self.deviceInterface, "Connect") } catch {
            if case .bus(let failure) = error, failure.detail.contains("org.bluez.Error.AlreadyConnected") {
            } else {
                progress("\(device) is paired but not connected yet (\(error)): a key press connects it")
            }
        }
        return try state().devices.first { $0.path == device.path } ?? device
    }

    /// Asks BlueZ what it found until one device fits: the one `wanted` names, else the one input device in range
    /// and unpaired.
    private func discover(wanted: String?, within: Duration, polling: Duration) throws(Failure) -> Device {
        let step = max(polling, .milliseconds(1))
        let polls = max(1, Int((within / step).rounded(.down)))
        for poll in 0...polls {
            if poll > 0 { ThreadSleep.pause(for: step) }
            let devices = try state().devices
            if let wanted {
                if let device = devices.first(where: { Self.device($0, is: wanted) }) { return device }
                continue
            }
            let remotes = devices.filter { $0.inRange && !$0.paired && $0.isInput }
            if remotes.count == 1 { return remotes[0] }
            if remotes.count > 1 { throw .ambiguous(remotes) }
        }
        throw .nothingFound(within: within, wanted: wanted.map { "\"\($0)\"" })
    }

    private func call(_ path: String, _ interface: String, _ method: String) throws(Failure) {
        do { try bus.call(Self.service, path, interface, method) } catch { throw Self.failure(error) }
    }

    private static func failure(_ error: SystemBus.Failure) -> Failure {
        switch error.code {
        case .noSuchAddressOrDevice: .noBlueZ
        case .permissionDenied: .notAllowed(error.detail)
        default: .bus(error)
        }
    }

    /// Whether `device` is the one `wanted` names: its address, or its name without regard to case.
    static func device(_ device: Device, is wanted: String) -> Bool {
        device.address.lowercased() == wanted.lowercased() || device.name.lowercased() == wanted.lowercased()
    }

    /// A Device1's properties (and its Battery1's) as a device.
    static func device(path: String, _ properties: [String: String], battery: [String: String]?) -> Device {
        let address = properties["Address"] ?? ""
        let uuids = (properties["UUIDs"] ?? "").lowercased().split(separator: ",")
        let hid = uuids.contains { $0.hasPrefix("00001124-") || $0.hasPrefix("00001812-") }
        let appearance = properties["Appearance"].flatMap { UInt16($0) } ?? 0
        let major = ((properties["Class"].flatMap { UInt32($0) } ?? 0) >> 8) & 0x1F
        let icon = properties["Icon"] ?? ""
        let (vendor, product) = ids(modalias: properties["Modalias"] ?? "")
        return Device(
            path: path, address: address,
            name: properties["Alias"].flatMap { $0.isEmpty ? nil : $0 } ?? properties["Name"] ?? address,
            paired: properties["Paired"] == "true", trusted: properties["Trusted"] == "true",
            connected: properties["Connected"] == "true", inRange: properties["RSSI"] != nil,
            battery: battery?["Percentage"].flatMap { Int($0) }, vendor: vendor, product: product,
            isInput: hid || icon.hasPrefix("input-") || appearance >> 6 == 0x0F || major == 5)
    }

    /// Vendor and product from a Modalias ("bluetooth:v05ACp022Cd0001" or "usb:v046Dp…"), or nils.
    static func ids(modalias: String) -> (UInt16?, UInt16?) {
        guard let colon = modalias.firstIndex(of: ":") else { return (nil, nil) }
        let rest = modalias[modalias.index(after: colon)...]
        guard rest.count >= 10, rest.first == "v", rest.dropFirst(5).first == "p" else { return (nil, nil) }
        return (UInt16(rest.dropFirst(1).prefix(4), radix: 16), UInt16(rest.dropFirst(6).prefix(4), radix: 16))
    }
}
