// KeyEvent: one key going down, coming up or repeating on a remote, with the kernel's time for it.
import BoothTime

/// One key going down, coming up or repeating on an input device, at the kernel's time for it (CLOCK_MONOTONIC, the
/// booth's loop clock).
public struct KeyEvent: Hashable, Sendable {
    /// What the key did.
    public enum Action: Int32, Hashable, Sendable {
        /// Let go.
        case released = 0
        /// Pressed down.
        case pressed = 1
        /// Held: the kernel's (or the device's) autorepeat.
        case repeated = 2
    }

    /// The key (linux/input-event-codes.h).
    public var code: UInt16
    /// What it did.
    public var action: Action
    /// When the kernel took it.
    public var time: Instant

    /// An event of `code`.
    public init(code: UInt16, action: Action, time: Instant) {
        self.code = code
        self.action = action
        self.time = time
    }
}
