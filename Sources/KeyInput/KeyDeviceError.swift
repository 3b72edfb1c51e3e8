// KeyDeviceError: why an input device could not be opened, taken or read, with the fix.
import BoothSystem

/// Why an input device (a remote, keypad or pedal) could not be opened, taken or read: the operation, the node, the
/// errno and what to do.
public struct KeyDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done.
    public enum Operation: String, Hashable, Sendable {
        case open = "open"
        case ask = "ask"
        case grab = "take"
        case read = "read"
    }

    /// What was being done.
    public var operation: Operation
    /// The event node (/dev/input/event3).
    public var path: String
    /// The errno.
    public var code: Errno

    /// An error of `operation` on `path`.
    public init(_ operation: Operation, _ path: String, code: Errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// An error of `operation` on `path` with the errno the C shim returned.
    init(_ operation: Operation, _ path: String, errno code: Int32) {
        self.init(operation, path, code: Errno(rawValue: code))
    }

    /// The device went away (unplugged, or a Bluetooth remote asleep or out of range).
    public var isGone: Bool { code.meansDeviceMissing }

    public var description: String {
        "\(operation.rawValue) input device \(path): \(ErrnoText.describe(code.rawValue)); \(fix)"
    }

    private var fix: String {
        if isGone {
            return "it went away (unplugged, or a Bluetooth remote asleep or out of range); it is taken again when it "
                + "returns"
        }
        if code.meansNotAllowed {
            return "the booth may read only the devices its udev rule gives it (remote.devices): check the name with "
                + "`booth remote list`, then `sudo udevadm trigger` or plug the device in again"
        }
        return switch code {
        case .resourceBusy:
            "another program took it for itself (a desktop session, `evtest --grab`): stop that program"
        case .inappropriateIOCTLForDevice, .invalidArgument:
            "it is not an input device's event node: remote devices are found under /dev/input"
        default:
            "check that the kernel's evdev module is loaded and the device is connected"
        }
    }
}
