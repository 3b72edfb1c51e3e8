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
    public var code: Int32

    /// An error of `operation` on `path`.
    public init(_ operation: Operation, _ path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The device went away (unplugged, or a Bluetooth remote asleep or out of range).
    public var isGone: Bool { code == ErrnoCode.noSuchDevice || code == ErrnoCode.noSuchFileOrDirectory }

    public var description: String {
        "\(operation.rawValue) input device \(path): \(ErrnoText.describe(code)); \(fix)"
    }

    private var fix: String {
        switch code {
        case ErrnoCode.permissionDenied:
            "the booth may read only the devices its udev rule gives it (remote.devices): check the name with "
                + "`booth remote list`, then `sudo udevadm trigger` or plug the device in again"
        case ErrnoCode.resourceBusy:
            "another program took it for itself (a desktop session, `evtest --grab`): stop that program"
        case ErrnoCode.inappropriateIOCTLForDevice, ErrnoCode.invalidArgument:
            "it is not an input device's event node: remote devices are found under /dev/input"
        case ErrnoCode.noSuchDevice, ErrnoCode.noSuchFileOrDirectory:
            "it went away (unplugged, or a Bluetooth remote asleep or out of range); it is taken again when it returns"
        default:
            "check that the kernel's evdev module is loaded and the device is connected"
        }
    }
}
