// KeyDevice: one Linux input device (a remote, keypad or pedal) the booth reads keys from.
import BoothSystem
import BoothTime
import CKeyInput

/// One Linux input device (`/dev/input/event*`: a Bluetooth selfie remote, a USB keypad, a presenter clicker, a foot
/// pedal) opened non-blocking, its event times on CLOCK_MONOTONIC (the loop's clock). Wait for `fileDescriptor` to be
/// readable, then `read()` takes every key event waiting. Closed on deinit (which gives a grab back).
public final class KeyDevice {
    /// The event node.
    public let path: String
    /// The name the device gives the kernel.
    public let name: String
    /// The bus (3 USB, 5 Bluetooth, 6 virtual ...) and the vendor and product ids.
    public let bus: UInt16
    /// See `bus`.
    public let vendor: UInt16
    /// See `bus`.
    public let product: UInt16
    /// Readable when events wait. Owned by this object: do not close it.
    public var fileDescriptor: FileDescriptor { FileDescriptor(rawValue: raw) }
    /// Its raw value, for the C calls.
    private let raw: Int32

    /// Opens the event node at `path`.
    public init(path: String) throws(KeyDeviceError) {
        var info = booth_key_device_info()
        let fd = booth_keys_open(path, &info)
        guard fd >= 0 else { throw KeyDeviceError(.open, path, errno: -fd) }
        self.path = path
        raw = fd
        name = withUnsafeBytes(of: info.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        bus = info.bustype
        vendor = info.vendor
        product = info.product
    }

    /// A device read from `descriptor` (a pipe carrying the kernel's event records, in tests), which it then owns.
    init(descriptor: Int32, path: String, name: String, vendor: UInt16 = 0, product: UInt16 = 0) {
        self.path = path
        self.name = name
        bus = 0
        self.vendor = vendor
        self.product = product
        raw = descriptor
    }

    deinit { booth_keys_close(raw) }

    /// Whether the device can send `key` at all.
    public func canSend(_ key: UInt16) throws(KeyDeviceError) -> Bool {
        let answer = booth_keys_has_key(raw, UInt32(key))
        guard answer >= 0 else { throw KeyDeviceError(.ask, path, errno: -answer) }
        return answer == 1
    }

    /// Whether `key` is down now (a key pressed before the device was opened, and not let go yet).
    public func isDown(_ key: UInt16) throws(KeyDeviceError) -> Bool {
        let answer = booth_keys_is_down(raw, UInt32(key))
        guard answer >= 0 else { throw KeyDeviceError(.ask, path, errno: -answer) }
        return answer == 1
    }

    /// Takes the device for the booth alone: its keys reach no other program (nor the console) while it is open.
    public func grab() throws(KeyDeviceError) {
        let result = booth_keys_grab(raw, 1)
        guard result == 0 else { throw KeyDeviceError(.grab, path, errno: -result) }
    }

    /// Every key event waiting, in order (other event types, the kernel's SYN reports among them, left out); empty
    /// when none waits. Throws when the device went away (`isGone`).
    public func read() throws(KeyDeviceError) -> [KeyEvent] {
        var keys: [KeyEvent] = []
        var buffer = [booth_key_event](repeating: booth_key_event(), count: 64)
        while true {
            let count = booth_keys_read(raw, &buffer, Int32(buffer.count))
            guard count >= 0 else { throw KeyDeviceError(.read, path, errno: -count) }
            for event in buffer.prefix(Int(count)) where event.type == Self.keyType {
                guard let action = KeyEvent.Action(rawValue: event.value) else { continue }
                keys.append(KeyEvent(code: event.code, action: action, time: Instant(nanoseconds: event.nanoseconds)))
            }
            if count < buffer.count { return keys }
        }
    }

    /// The kernel's size of one event record (what a test writes to a pipe).
    public static var recordSize: Int { Int(booth_keys_record_size()) }

    /// EV_KEY.
    static let keyType: UInt16 = 1
}
