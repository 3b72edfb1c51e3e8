// RemoteSelector: which input device is one of the booth's remotes, as the config names it.
/// Which Linux input device (a Bluetooth selfie remote, a USB keypad, a presenter clicker, a foot pedal) is one of
/// the booth's remotes: by the name the device gives the kernel ("AB Shutter3", compared without regard to case), or
/// by its USB or Bluetooth vendor and product ids ("248a:8266", four hex digits each).
public enum RemoteSelector: Hashable, Sendable, CustomStringConvertible {
    /// The device's name, as `booth remote list` and /proc/bus/input/devices show it.
    case name(String)
    /// The device's vendor and product ids.
    case ids(vendor: UInt16, product: UInt16)

    /// Reads a config value: "vvvv:pppp" is ids, anything else a name; nil for an empty value.
    public init?(configValue: String) {
        guard !configValue.isEmpty else { return nil }
        let parts = configValue.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts.allSatisfy({ $0.count == 4 }), let vendor = UInt16(parts[0], radix: 16),
            let product = UInt16(parts[1], radix: 16)
        {
            self = .ids(vendor: vendor, product: product)
        } else {
            self = .name(configValue)
        }
    }

    /// Whether a device with this name and these ids is the one selected. A name selects the devices the kernel makes
    /// of one HID remote too: it names each of its parts after the remote with the part's kind ("AB Shutter3 Consumer
    /// Control" and "AB Shutter3 Keyboard" for "AB Shutter3").
    public func matches(name: String, vendor: UInt16, product: UInt16) -> Bool {
        switch self {
        case .name(let wanted):
            let device = name.lowercased()
            let base = wanted.lowercased()
            guard device != base else { return true }
            guard device.hasPrefix(base + " ") else { return false }
            return Self.hidParts.contains(String(device.dropFirst(base.count + 1)))
        case .ids(let v, let p): return v == vendor && p == product
        }
    }

    /// The kinds the kernel's HID layer names the input devices of one HID device after (hid-input.c), lower case.
    static let hidParts: Set<String> = [
        "keyboard", "mouse", "consumer control", "system control", "keypad", "wireless radio control", "misc",
    ]

    public var description: String {
        switch self {
        case .name(let name): "\"\(name)\""
        case .ids(let vendor, let product): Self.hex(vendor) + ":" + Self.hex(product)
        }
    }

    /// Four lower-case hex digits, as lsusb prints ids.
    public static func hex(_ id: UInt16) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
