// DeviceWarning: conditions in which the booth still works but a person should look.
/// Conditions in which the booth still works but a person should look: shown by the warning pattern, the first LED
/// blinking `blinks` times (heat and power by the health warning pattern, on the last LED).
public enum DeviceWarning: String, Hashable, Sendable, CaseIterable {
    /// The sound device is missing or busy: sounds are timed but silent.
    case soundDeviceUnavailable
    /// The mixer's playback control is muted or at zero: the sounds are silent.
    case volumeMuted
    /// The mixer's playback control is below half: the sounds are quiet.
    case volumeLow
    /// The camera is missing or gone: presses are refused until it returns.
    case cameraUnavailable
    /// A configured GPIO line could not be opened.
    case gpioUnavailable
    /// The big button's line could not be opened: no press can come, so the button's LED stays dark.
    case buttonUnavailable
    /// The SoC is too hot (at the configured limit, or the firmware holds it back for heat).
    case overheating
    /// The Pi's supply is too low (the firmware's under-voltage flag): a brown-out is near.
    case underVoltage
    /// The camera over USB says its battery is low: it stops taking photos when it runs out.
    case cameraBatteryLow
    /// The printer needs something before it prints again (paper, a jam cleared, a door shut, ink or ribbon), or its
    /// CUPS queue stopped, or CUPS cannot be reached (`print.mode` on): prints wait or fail.
    case printerNeedsAttention

    /// Heat, power and supplies (the Pi's, the camera's battery, the printer's paper and ink): shown by their own
    /// pattern, more urgent than the others.
    public var isHealth: Bool {
        self == .overheating || self == .underVoltage || self == .cameraBatteryLow || self == .printerNeedsAttention
    }

    /// How many times its LED blinks before each pause: the camera 1, the sound device 2, muted 3, quiet 4, a GPIO
    /// line 5, the button's line 6; on the last LED, heat 1, power 2, the camera's battery 3, the printer 4. (The LED
    /// table in README.md says the same.)
    public var blinks: Int {
        switch self {
        case .cameraUnavailable, .overheating: 1
        case .soundDeviceUnavailable, .underVoltage: 2
        case .volumeMuted, .cameraBatteryLow: 3
        case .volumeLow, .printerNeedsAttention: 4
        case .gpioUnavailable: 5
        case .buttonUnavailable: 6
        }
    }

    /// The blink counts of `warnings`, fewest first: the order their codes take turns on the LED.
    public static func blinkCodes(_ warnings: some Sequence<DeviceWarning>) -> [Int] {
        warnings.map(\.blinks).sorted()
    }
}
