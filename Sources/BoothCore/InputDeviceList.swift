// InputDeviceList: the kernel's list of input devices (/proc/bus/input/devices), as `booth remote list` shows it.
/// The kernel's list of input devices, as /proc/bus/input/devices gives it (readable by anyone): each device's name,
/// bus, ids and event node. Pure: the command reads the file.
public struct InputDeviceList: Hashable, Sendable {
    /// One input device.
    public struct Device: Hashable, Sendable {
        /// The name it gives the kernel.
        public var name = ""
        /// The bus: 3 USB, 5 Bluetooth, 6 virtual (uinput), 0x19 the host (power button), ...
        public var bus: UInt16 = 0
        /// Its vendor id.
        public var vendor: UInt16 = 0
        /// Its product id.
        public var product: UInt16 = 0
        /// Its event node's name ("event3"), nil for a device without one.
        public var eventNode: String?

        /// A device of this name and these ids.
        public init(
            name: String = "", bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, eventNode: String? = nil
        ) {
            self.name = name
            self.bus = bus
            self.vendor = vendor
            self.product = product
            self.eventNode = eventNode
        }

        /// The bus by name.
        public var busName: String {
            switch bus {
            case 0x03: "USB"
            case 0x05: "Bluetooth"
            case 0x06: "virtual"
            case 0x19: "built in"
            default: "bus \(RemoteSelector.hex(bus))"
            }
        }
    }

    /// The devices, in the kernel's order.
    public var devices: [Device]

    /// Reads the file's text: blocks of `X: ...` lines, one block a device.
    public init(parsing text: String) {
        var devices: [Device] = []
        var current: Device?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty {
                if let device = current { devices.append(device) }
                current = nil
                continue
            }
            var device = current ?? Device()
            let body = line.dropFirst(3)
            if line.hasPrefix("I: ") {
                for field in body.split(separator: " ") {
                    let parts = field.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, let value = UInt16(parts[1], radix: 16) else { continue }
                    switch parts[0] {
                    case "Bus": device.bus = value
                    case "Vendor": device.vendor = value
                    case "Product": device.product = value
                    default: break
                    }
                }
            } else if line.hasPrefix("N: Name=") {
                var name = line.dropFirst("N: Name=".count)
                if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = name.dropFirst().dropLast() }
                device.name = String(name)
            } else if line.hasPrefix("H: Handlers=") {
                device.eventNode = line.dropFirst("H: Handlers=".count).split(separator: " ")
                    .first { $0.hasPrefix("event") }.map(String.init)
            }
            current = device
        }
        if let device = current { devices.append(device) }
        self.devices = devices
    }
}
